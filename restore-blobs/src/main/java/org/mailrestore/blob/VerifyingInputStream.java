package org.mailrestore.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.function.Supplier;

/**
 * Hashes the bytes as they stream and, at end of stream, fails unless they match the expected
 * digest and size.
 *
 * <p>A consumer that copies this stream to its destination therefore learns of a bad blob before it
 * publishes anything: the last {@code read} throws instead of returning -1.
 */
public final class VerifyingInputStream extends FilterInputStream {

  private final BlobDigest expected;
  private final long expectedSize;
  private final Supplier<String> where; // made only for a message: a path costs on a hot path
  private final MessageDigest sha256 = BlobDigest.newSha256();
  private long count;
  private boolean verified;

  /**
   * @param expectedSize the declared size in bytes, or -1 when the item does not declare one
   * @param where names the blob's location in error messages (a path or an S3 key); asked only for
   *     one
   */
  public VerifyingInputStream(
      InputStream in, BlobDigest expected, long expectedSize, Supplier<String> where) {
    super(in);
    this.expected = expected;
    this.expectedSize = expectedSize;
    this.where = where;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b < 0) {
      checkAtEnd();
    } else {
      sha256.update((byte) b);
      count++;
      checkNotTooLong();
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    if (n < 0) {
      checkAtEnd();
    } else if (n > 0) {
      sha256.update(buffer, offset, n);
      count += n;
      checkNotTooLong();
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // Skipped bytes must still be hashed, so skip by reading.
    byte[] scratch = new byte[(int) Math.min(8192, Math.max(n, 1))];
    long skipped = 0;
    while (skipped < n) {
      int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public synchronized void mark(int readLimit) {
    // Not supported: re-reading would corrupt the running digest.
  }

  @Override
  public synchronized void reset() throws IOException {
    throw new IOException("mark/reset is not supported while verifying a blob");
  }

  /** Bytes read so far. */
  public long count() {
    return count;
  }

  private void checkNotTooLong() throws BlobException {
    if (expectedSize >= 0 && count > expectedSize) {
      throw new BlobException(
          BlobException.Reason.SIZE_MISMATCH,
          "blob "
              + expected
              + " at "
              + where.get()
              + " is longer than the "
              + expectedSize
              + " bytes its item declares");
    }
  }

  private void checkAtEnd() throws BlobException {
    if (verified) {
      return;
    }
    if (expectedSize >= 0 && count != expectedSize) {
      throw new BlobException(
          BlobException.Reason.SIZE_MISMATCH,
          "blob "
              + expected
              + " at "
              + where.get()
              + " has "
              + count
              + " bytes but its item declares "
              + expectedSize);
    }
    BlobDigest actual = BlobDigest.of(sha256.digest());
    if (!actual.equals(expected)) {
      throw new BlobException(
          BlobException.Reason.DIGEST_MISMATCH,
          "blob at " + where.get() + " should hash to " + expected + " but hashes to " + actual);
    }
    verified = true;
  }
}
