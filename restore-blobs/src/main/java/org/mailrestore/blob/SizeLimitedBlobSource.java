package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * A blob source whose blobs are at most the largest item a restore reads: one declared larger fails
 * before it is opened, one that gives more than it may (a compressed blob that decompresses beyond
 * the bound, an undeclared size) fails as it passes the bound.
 */
final class SizeLimitedBlobSource extends ForwardingBlobSource {

  private final long maxBytes;

  SizeLimitedBlobSource(BlobSource delegate, long maxBytes) {
    super(delegate);
    this.maxBytes = maxBytes;
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    return ItemSizeLimit.bound(delegate.open(digest), maxBytes, () -> describe(digest));
  }

  @Override
  public InputStream openVerified(BlobDigest digest, long expectedSize) throws IOException {
    if (expectedSize > maxBytes) {
      throw ItemSizeLimit.tooLarge(
          describe(digest) + " (declared " + expectedSize + " bytes)", maxBytes);
    }
    return verifying(digest, expectedSize, open(digest));
  }
}
