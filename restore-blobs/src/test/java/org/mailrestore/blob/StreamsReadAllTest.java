package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link Streams#readAll}: a stream read whole, at the size expected or as it is. */
class StreamsReadAllTest {

  private static final byte[] BYTES =
      "Subject: hello\r\n\r\nbody\r\n".getBytes(StandardCharsets.UTF_8);

  /** Counts the times the end of the stream was reached, as the checks made at the end count. */
  private static final class EndSeen extends FilterInputStream {
    int ends;

    EndSeen(byte[] bytes) {
      super(new ByteArrayInputStream(bytes));
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      ends += b < 0 ? 1 : 0;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      ends += n < 0 ? 1 : 0;
      return n;
    }
  }

  @Test
  void aStreamOfTheExpectedSizeIsReadToItsEnd() throws IOException {
    EndSeen in = new EndSeen(BYTES);
    assertThat(Streams.readAll(in, BYTES.length)).isEqualTo(BYTES);
    assertThat(in.ends).as("the end was reached, so a check made there runs").isPositive();
  }

  @Test
  void aShorterOrLongerStreamIsReadAsItIs() throws IOException {
    assertThat(Streams.readAll(new EndSeen(BYTES), BYTES.length + 10)).isEqualTo(BYTES);
    assertThat(Streams.readAll(new EndSeen(BYTES), 5)).isEqualTo(BYTES);
    assertThat(Streams.readAll(new EndSeen(BYTES), 0)).isEqualTo(BYTES);
    assertThat(Streams.readAll(new EndSeen(new byte[0]), 3)).isEmpty();
  }

  @Test
  void anUnknownOrImplausibleSizeReadsWithoutAllocatingForIt() throws IOException {
    assertThat(Streams.readAll(new EndSeen(BYTES), -1)).isEqualTo(BYTES);
    // A size declared by a broken backup: 2 GiB are not allocated, only the bytes there are.
    InputStream in = new EndSeen(BYTES);
    assertThat(Streams.readAll(in, Integer.MAX_VALUE - 8)).isEqualTo(BYTES);
  }
}
