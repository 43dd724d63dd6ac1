package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * Retries what fails for passing reasons (resets, timeouts, throttling that outlived the client's
 * own retries): opening a blob, and reading it, resuming a broken stream where it broke (the blob
 * is opened again and the bytes already delivered are skipped). Missing or damaged blobs are not
 * retried.
 */
public final class RetryingBlobSource extends ForwardingBlobSource {

  /** Told of every retry, for metrics. */
  @FunctionalInterface
  public interface Listener {
    void retried(BlobDigest digest, Throwable cause);
  }

  private final RetryPolicy policy;
  private final Listener listener;

  public RetryingBlobSource(BlobSource delegate, RetryPolicy policy, Listener listener) {
    super(delegate);
    this.policy = policy;
    this.listener = listener;
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    return ResumingInputStream.open(
        () -> delegate.open(digest), policy, e -> listener.retried(digest, e), "blob " + digest);
  }
}
