package org.mailrestore.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/**
 * The largest item a restore reads ({@link StorageLimits#maxItemBytes}), held by every reader that
 * decompresses or spools: a stream that would give more fails as it passes the bound, so neither
 * memory nor disk ever hold more of it.
 */
public final class ItemSizeLimit {

  private ItemSizeLimit() {}

  /** The failure of an item over the bound, naming what it was and the setting. */
  public static BlobException tooLarge(String what, long maxBytes) {
    return new BlobException(
        BlobException.Reason.TOO_LARGE,
        what
            + " holds more than "
            + maxBytes
            + " bytes, the largest item a restore reads (mailrestore.limits.max-item-size,"
            + " --max-item-size): not restored");
  }

  /**
   * {@code in}, failing with {@link #tooLarge} once it has given more than {@code maxBytes}. What
   * it is gets described only then: a description per blob read was a measurable part of a restore.
   */
  public static InputStream bound(InputStream in, long maxBytes, Supplier<String> what) {
    return new FilterInputStream(in) {
      private long count;

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          counted(1);
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
          counted(n);
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        counted(skipped);
        return skipped;
      }

      private void counted(long n) throws BlobException {
        count += n;
        if (count > maxBytes) {
          throw tooLarge(what.get(), maxBytes);
        }
      }
    };
  }
}
