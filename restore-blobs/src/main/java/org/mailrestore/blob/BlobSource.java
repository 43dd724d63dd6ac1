package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * Where the blobs of a backup come from: reads a blob's raw bytes by digest, decompressing on the
 * fly. Implementations must be safe for concurrent use.
 */
public interface BlobSource extends AutoCloseable {

  /**
   * Opens the raw (decompressed) bytes of a blob.
   *
   * @throws BlobException with {@link BlobException.Reason#MISSING} when there is no such blob
   */
  InputStream open(BlobDigest digest) throws IOException;

  /** Where the blob is looked for, for messages a person can act on (a path or a URI). */
  String describe(BlobDigest digest);

  /**
   * Opens a blob whose digest and size are checked while it streams: the final read fails with a
   * {@link BlobException} when they do not match.
   *
   * @param expectedSize the size its item declares, or -1 when unknown
   */
  default InputStream openVerified(BlobDigest digest, long expectedSize) throws IOException {
    return new VerifyingInputStream(open(digest), digest, expectedSize, describe(digest));
  }

  @Override
  default void close() throws IOException {}
}
