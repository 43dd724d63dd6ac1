package org.mailrestore.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.Passing;

/**
 * Content a target sends whole (an IMAP APPEND, a DAV PUT) is bounded: larger content fails alone
 * as too large, before more of it than the bound is held, instead of filling the heap.
 */
class WholeContentTest {

  private static final byte[] SMALL =
      "Subject: small\r\n\r\nhi\r\n".getBytes(StandardCharsets.UTF_8);

  @Test
  void theBoundIsAnEighthOfTheHeapAndAtMostOneGib() {
    assertThat(WholeContent.largest())
        .isEqualTo(Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 8))
        .isLessThanOrEqualTo(WholeContent.LARGEST_EVER);
  }

  @Test
  void contentWithinTheBoundIsReadWhole() throws IOException {
    byte[] bytes = sized(5000);
    assertThat(read(bytes, bytes.length, 5000)).isEqualTo(bytes);
    assertThat((byte[]) WholeContent.stage(passing(bytes, -1), null, 5000).handle())
        .isEqualTo(bytes);
  }

  @Test
  void contentDeclaredLargerThanTheBoundFailsBeforeAByteIsRead() {
    byte[] bytes = sized(5_100_000);
    AtomicInteger opened = new AtomicInteger();
    assertThatThrownBy(() -> read(bytes, bytes.length, 5_000_000, opened))
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.TOO_LARGE))
        .hasMessageContaining("4.9 MiB, more than the 4.8 MiB")
        .hasMessageContaining("-Xmx");
    assertThat(opened).as("the content was never read").hasValue(0);
    assertThatThrownBy(() -> WholeContent.stage(passing(bytes, bytes.length), null, 5_000_000))
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.TOO_LARGE));
  }

  @Test
  void contentOfNoDeclaredSizeFailsOnceItPassesTheBound() {
    byte[] bytes = sized(2_000_000);
    assertThatThrownBy(() -> WholeContent.stage(passing(bytes, -1), null, 1_500_000))
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.TOO_LARGE))
        .hasMessageContaining("over 1.4 MiB");
    assertThatThrownBy(() -> read(bytes, -1, 1_500_000))
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.TOO_LARGE));
  }

  @Test
  void smallContentIsReadAsBeforeAndStagedWithItsDigest() throws IOException {
    ItemBatch.Staged staged =
        WholeContent.stage(passing(SMALL, SMALL.length), BlobDigest.ofContent(SMALL));
    assertThat(staged.digest()).isEqualTo(BlobDigest.ofContent(SMALL));
    assertThat((byte[]) staged.handle()).isEqualTo(SMALL);
  }

  private static byte[] read(byte[] bytes, long declared, long largest) throws IOException {
    return read(bytes, declared, largest, new AtomicInteger());
  }

  private static byte[] read(byte[] bytes, long declared, long largest, AtomicInteger opened)
      throws IOException {
    BlobDigest digest = BlobDigest.ofContent(bytes);
    Revision state = Revision.builder(1, 0).folder(2).blob(declared, digest).build();
    ItemToWrite item = new ItemToWrite(1, ItemType.MESSAGE, state, 2, "item 1", null);
    SourceContent content =
        new SourceContent() {
          @Override
          public int turns() {
            return 1;
          }

          @Override
          public <T> T read(BlobDigest d, long size, Reading<T> reading) throws IOException {
            opened.incrementAndGet();
            try (InputStream in = new ByteArrayInputStream(bytes)) {
              return reading.read(in);
            }
          }
        };
    try (var io = Executors.newVirtualThreadPerTaskExecutor()) {
      return WholeContent.of(item, new WriteContext(content, io), largest);
    }
  }

  private static Passing passing(byte[] bytes, long size) {
    return new Passing() {
      @Override
      public InputStream open() {
        return new ByteArrayInputStream(bytes);
      }

      @Override
      public long size() {
        return size;
      }

      @Override
      public String describe() {
        return "an archive's entry";
      }
    };
  }

  private static byte[] sized(int n) {
    byte[] bytes = new byte[n];
    Arrays.fill(bytes, (byte) 'x');
    return bytes;
  }
}
