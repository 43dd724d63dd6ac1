package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * A blob volume that hands every call to another: decorators extend it and override only what they
 * change.
 */
public abstract class ForwardingBlobVolume implements BlobVolume {

  protected final BlobVolume delegate;

  protected ForwardingBlobVolume(BlobVolume delegate) {
    this.delegate = delegate;
  }

  @Override
  public StoredBlob write(BlobDigest digest, long sizeHint, InputStream content)
      throws IOException {
    return delegate.write(digest, sizeHint, content);
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
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void check() throws IOException {
    delegate.check();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
