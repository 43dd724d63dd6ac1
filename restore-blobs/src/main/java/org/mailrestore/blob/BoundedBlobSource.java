package org.mailrestore.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.Semaphore;

/**
 * At most {@code permits} blobs open at once: a read holds its permit until its stream is closed.
 * Bounds the requests in flight against a source whatever the callers do.
 */
public final class BoundedBlobSource extends ForwardingBlobSource {

  private final Semaphore permits;

  public BoundedBlobSource(BlobSource delegate, int permits) {
    super(delegate);
    this.permits = new Semaphore(permits);
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    acquire(permits);
    try {
      return new FilterInputStream(delegate.open(digest)) {
        private boolean released;

        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            if (!released) {
              released = true;
              permits.release();
            }
          }
        }
      };
    } catch (IOException | RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  static void acquire(Semaphore semaphore) throws InterruptedIOException {
    try {
      semaphore.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a request slot");
    }
  }
}
