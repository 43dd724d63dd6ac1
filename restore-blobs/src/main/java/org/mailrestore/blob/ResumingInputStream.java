package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * A stream that survives passing failures (resets, timeouts): when a read fails for a transient
 * reason it opens the source again, skips what it already delivered, and goes on, within a {@link
 * RetryPolicy}. Missing or damaged data is not retried.
 */
public final class ResumingInputStream extends InputStream {

  /** Opens the data from its start. */
  @FunctionalInterface
  public interface Opener {
    InputStream open() throws IOException;
  }

  private final Opener opener;
  private final RetryPolicy policy;
  private final Consumer<Exception> onRetry;
  private final String what;
  private final byte[] one = new byte[1];
  private InputStream in;
  private long position;
  private int attempts = 1;

  private ResumingInputStream(
      Opener opener,
      RetryPolicy policy,
      Consumer<Exception> onRetry,
      String what,
      InputStream first) {
    this.opener = opener;
    this.policy = policy;
    this.onRetry = onRetry;
    this.what = what;
    this.in = first;
  }

  /**
   * Opens {@code what} (retrying a transient failure to open) and returns a stream that resumes
   * after transient failures to read; {@code onRetry} hears of every retry.
   */
  public static ResumingInputStream open(
      Opener opener, RetryPolicy policy, Consumer<Exception> onRetry, String what)
      throws IOException {
    ResumingInputStream s = new ResumingInputStream(opener, policy, onRetry, what, null);
    s.in = s.openWithRetries();
    return s;
  }

  private InputStream openWithRetries() throws IOException {
    while (true) {
      try {
        return opener.open();
      } catch (IOException | RuntimeException e) {
        retryOrThrow(e);
      }
    }
  }

  private void retryOrThrow(Exception e) throws IOException {
    if (!RetryPolicy.isTransient(e) || attempts >= policy.maxAttempts()) {
      if (e instanceof IOException io) {
        throw io;
      }
      throw (RuntimeException) e;
    }
    attempts++;
    onRetry.accept(e);
    RetryPolicy.sleep(policy.backoff(attempts));
  }

  @Override
  public int read() throws IOException {
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    while (true) {
      try {
        int n = in.read(b, off, len);
        if (n > 0) {
          position += n;
        }
        return n;
      } catch (IOException | RuntimeException e) {
        retryOrThrow(e);
        closeQuietly(in);
        in = openWithRetries();
        skipDelivered();
      }
    }
  }

  private void skipDelivered() throws IOException {
    long toSkip = position;
    byte[] scratch = new byte[64 * 1024];
    while (toSkip > 0) {
      int n = in.read(scratch, 0, (int) Math.min(scratch.length, toSkip));
      if (n < 0) {
        throw new BlobException(
            BlobException.Reason.IO_ERROR, what + " is shorter on a second read than on the first");
      }
      toSkip -= n;
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private static void closeQuietly(InputStream s) {
    try {
      s.close();
    } catch (IOException | RuntimeException e) {
      // It is broken already.
    }
  }
}
