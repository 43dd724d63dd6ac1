package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * Retries what fails for passing reasons (resets, timeouts, throttling that outlived the client's
 * own retries): opening a blob, and reading it, resuming a broken stream where it broke (the blob
 * is opened again and the bytes already delivered are skipped). Missing or damaged blobs are not
 * retried.
 */
public final class RetryingBlobSource implements BlobSource {

  /** Told of every retry, for metrics. */
  @FunctionalInterface
  public interface Listener {
    void retried(BlobDigest digest, Throwable cause);
  }

  private final BlobSource delegate;
  private final RetryPolicy policy;
  private final Listener listener;

  public RetryingBlobSource(BlobSource delegate, RetryPolicy policy, Listener listener) {
    this.delegate = delegate;
    this.policy = policy;
    this.listener = listener;
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    return new Resuming(digest, openWithRetries(digest, 1));
  }

  private InputStream openWithRetries(BlobDigest digest, int firstAttempt) throws IOException {
    for (int attempt = firstAttempt; ; attempt++) {
      try {
        return delegate.open(digest);
      } catch (IOException | RuntimeException e) {
        if (!RetryPolicy.isTransient(e) || attempt >= policy.maxAttempts()) {
          throw e;
        }
        listener.retried(digest, e);
        RetryPolicy.sleep(policy.backoff(attempt + 1));
      }
    }
  }

  @Override
  public String describe(BlobDigest digest) {
    return delegate.describe(digest);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  /** A blob's stream that reopens itself after a passing failure. */
  private final class Resuming extends InputStream {
    private final BlobDigest digest;
    private InputStream in;
    private long position;
    private int attempts = 1;

    Resuming(BlobDigest digest, InputStream in) {
      this.digest = digest;
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
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
          if (!RetryPolicy.isTransient(e) || attempts >= policy.maxAttempts()) {
            throw e;
          }
          attempts++;
          listener.retried(digest, e);
          closeQuietly(in);
          RetryPolicy.sleep(policy.backoff(attempts));
          in = openWithRetries(digest, attempts);
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
              BlobException.Reason.IO_ERROR,
              "blob " + digest + " is shorter on a second read than on the first");
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
}
