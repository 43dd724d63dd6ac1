package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;

/** At most {@code permits} writes to the volume at once. */
public final class BoundedBlobVolume extends ForwardingBlobVolume {

  private final Semaphore permits;

  public BoundedBlobVolume(BlobVolume delegate, int permits) {
    super(delegate);
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
}
