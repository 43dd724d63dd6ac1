package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;

/** A message spooled as it streams is what the same message converted whole would be. */
class SpooledMessageTest {

  @Test
  void aSpooledMessageIsItsCrlfFormWithItsDigestMessageIdAndLineEndings() throws IOException {
    byte[] head =
        "From: a@example.org\r\nMessage-ID:\r\n <spooled@example.org>\r\nSubject: big\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    byte[] source = Arrays.copyOf(head, head.length + (3 << 20));
    Arrays.fill(source, head.length, source.length, (byte) 'q');
    for (int i = head.length + 70; i < source.length; i += 71) {
      source[i] = '\n'; // bare LF lines in the body, CRLF in the header: MIXED
    }
    LineEndings.Converted whole = LineEndings.convert(source);
    SpooledMessage m = SpooledMessage.of(new ByteArrayInputStream(source), source.length, "test");
    try {
      assertThat(m.digest()).isEqualTo(BlobDigest.ofContent(source));
      assertThat(m.sourceSize()).isEqualTo(source.length);
      assertThat(m.size()).isEqualTo(whole.crlf().length);
      assertThat(m.kept().endings()).isEqualTo(LineEndings.MIXED);
      assertThat(m.kept().bareLines()).isEqualTo(whole.bareLines());
      assertThat(m.messageId()).isEqualTo(Appending.messageId(whole.crlf()));
      assertThat(m.messageId()).isEqualTo("<spooled@example.org>");
      try (InputStream in = m.open()) {
        assertThat(in.readAllBytes()).isEqualTo(whole.crlf());
      }
    } finally {
      m.close();
    }
    assertThat(Files.exists(m.file())).as("closed, its file is gone").isFalse();
  }

  @Test
  void aMessageShorterThanDeclaredFailsAndLeavesNoFile() throws IOException {
    long before = spools();
    byte[] source = "Subject: short\r\n\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(
            () -> SpooledMessage.of(new ByteArrayInputStream(source), source.length + 10, "short"))
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.SIZE_MISMATCH))
        .hasMessageContaining("short");
    assertThat(spools()).isEqualTo(before);
  }

  @Test
  void aMessageThatCannotBeSpooledFailsSayingWhereAndWhatItNeeds() throws IOException {
    java.nio.file.Path notADirectory = Files.createTempFile("mailrestore-test-", ".file");
    try {
      byte[] source = "Subject: x\r\n\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);
      assertThatThrownBy(() ->
              SpooledMessage.of(
                  new ByteArrayInputStream(source), 20L << 20, "big one", notADirectory))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.IO_ERROR))
          .hasMessageContaining("big one")
          .hasMessageContaining(notADirectory.toString())
          .hasMessageContaining("20.0 MiB free")
          .hasMessageContaining("-Djava.io.tmpdir");
    } finally {
      Files.delete(notADirectory);
    }
  }

  private static long spools() throws IOException {
    try (var files = Files.list(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")))) {
      return files
          .filter(f -> f.getFileName().toString().startsWith("mailrestore-append-"))
          .count();
    }
  }
}
