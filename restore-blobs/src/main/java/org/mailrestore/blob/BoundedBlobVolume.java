package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;

/** At most {@code permits} writes to the volume at once. */
public final class BoundedBlobVolume implements BlobVolume {

  private final BlobVolume delegate;
  private final Semaphore permits;

  public BoundedBlobVolume(BlobVolume delegate, int permits) {
    this.delegate = delegate;
    this.permits = new Semaphore(permits);
  }

  @Override
  public StoredBlob write(BlobDigest digest, long sizeHint, InputStream content)
      throws IOException {
    BoundedBlobSource.acquire(permits);
    try {
      return delegate.write(digest, sizeHint, content);
    } finally {
      permits.release();
    }
  }

  @Override
  public InputStream open(StoredBlob blob) throws IOException {
    return delegate.open(blob);
  }

  @Override
  public void sync() throws IOException {
    delegate.sync();
  }

  @Override
  public void check() throws IOException {
    delegate.check();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
