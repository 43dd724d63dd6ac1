package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * A blob source that hands every call to another: decorators extend it and override only what they
 * change.
 */
public abstract class ForwardingBlobSource implements BlobSource {

  protected final BlobSource delegate;

  protected ForwardingBlobSource(BlobSource delegate) {
    this.delegate = delegate;
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    return delegate.open(digest);
  }

  @Override
  public String describe(BlobDigest digest) {
    return delegate.describe(digest);
  }

  @Override
  public InputStream verifying(BlobDigest digest, long expectedSize, InputStream in) {
    return delegate.verifying(digest, expectedSize, in);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
