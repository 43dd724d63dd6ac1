package org.mailrestore.maildir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.PathFence;

/**
 * A small message file is read whole at the size it was listed with, and as it is when it moved.
 */
class MessageFileReadTest {

  private static final byte[] MESSAGE =
      "From: a@example.com\r\nSubject: hello\r\n\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);

  @TempDir Path dir;

  private MessageFileRead read(PathFence.Looked looked) throws IOException {
    return MessageFileRead.of(
        PathFence.NONE,
        looked,
        Long.MAX_VALUE,
        new byte[MessageFileRead.HEAD_BYTES],
        new byte[8192],
        true);
  }

  @Test
  void aFileIsReadWholeAndHashed() throws IOException {
    Path file = Files.write(dir.resolve("1:2,S"), MESSAGE);
    MessageFileRead read = read(PathFence.NONE.look(file));
    assertThat(read.whole()).isEqualTo(MESSAGE);
    assertThat(read.size()).isEqualTo(MESSAGE.length);
    assertThat(read.digest()).isEqualTo(BlobDigest.ofContent(MESSAGE));
    assertThat(read.headers().subject()).isEqualTo("hello");
  }

  @Test
  void aFileThatGrewSinceItWasListedIsReadWhole() throws IOException {
    Path file = Files.write(dir.resolve("1:2,S"), MESSAGE);
    PathFence.Looked listed = PathFence.NONE.look(file);
    byte[] longer =
        (new String(MESSAGE, StandardCharsets.US_ASCII) + "and more\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    Files.write(file, longer);
    MessageFileRead read = read(listed);
    assertThat(read.whole()).isEqualTo(longer);
    assertThat(read.digest()).isEqualTo(BlobDigest.ofContent(longer));
  }

  @Test
  void aFileThatShrankSinceItWasListedIsReadAsItIs() throws IOException {
    Path file = Files.write(dir.resolve("1:2,S"), MESSAGE);
    PathFence.Looked listed = PathFence.NONE.look(file);
    byte[] shorter = java.util.Arrays.copyOf(MESSAGE, 20);
    Files.write(file, shorter);
    MessageFileRead read = read(listed);
    assertThat(read.whole()).isEqualTo(shorter);
    assertThat(read.size()).isEqualTo(20);
  }
}
