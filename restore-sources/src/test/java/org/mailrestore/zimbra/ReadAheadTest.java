package org.mailrestore.zimbra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReadAheadTest {

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  @Test
  void everyByteArrivesInOrderWhateverTheReadsSizes() throws Exception {
    byte[] source = bytes(ReadAhead.CHUNK * (ReadAhead.CHUNKS * 3) + 12_345);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Random sizes = new Random(7);
    try (ReadAhead in = new ReadAhead(new ByteArrayInputStream(source), "test")) {
      while (true) {
        if (sizes.nextInt(4) == 0) {
          int b = in.read();
          if (b < 0) {
            break;
          }
          out.write(b);
        } else {
          byte[] buf = new byte[1 + sizes.nextInt(3 * ReadAhead.CHUNK)];
          int n = in.read(buf, 0, buf.length);
          if (n < 0) {
            break;
          }
          out.write(buf, 0, n);
        }
      }
      assertThat(in.read()).as("the end stays the end").isEqualTo(-1);
    }
    assertThat(out.toByteArray()).isEqualTo(source);
  }

  @Test
  void theBytesBeforeABreakArriveBeforeTheBreak() throws Exception {
    byte[] good = bytes(ReadAhead.CHUNK * 2 + 100);
    InputStream breaking =
        new InputStream() {
          private final InputStream data = new ByteArrayInputStream(good);

          @Override
          public int read() throws IOException {
            throw new UnsupportedOperationException();
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            int n = data.read(b, off, len);
            if (n < 0) {
              throw new IOException("Unexpected end of ZLIB input stream");
            }
            return n;
          }
        };
    try (ReadAhead in = new ReadAhead(breaking, "test")) {
      assertThat(in.readNBytes(good.length)).isEqualTo(good);
      assertThatThrownBy(in::read).hasMessage("Unexpected end of ZLIB input stream");
      assertThat(in.read()).as("after the break: the end").isEqualTo(-1);
    }
  }

  @Test
  void closingDoesNotWaitForAReadThatHangs() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    InputStream hanging =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new UnsupportedOperationException();
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            try {
              closed.await(); // a network read: only closing its stream ends it
            } catch (InterruptedException e) {
              // not interruptible either
            }
            throw new IOException("stream closed");
          }

          @Override
          public void close() {
            closed.countDown();
          }
        };
    ReadAhead in = new ReadAhead(hanging, "test");
    CompletableFuture.runAsync(
            () -> {
              try {
                in.close();
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            })
        .get(5, TimeUnit.SECONDS);
    assertThat(closed.getCount()).isZero();
  }
}
