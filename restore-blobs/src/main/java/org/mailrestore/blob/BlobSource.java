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
    return verifying(digest, expectedSize, open(digest));
  }

  /**
   * Wraps a stream of a blob's bytes in this source's check of them. By default the bytes are
   * hashed; a source that hashed the bytes itself earlier in the run (a Maildir tree) may instead
   * check that they are still the bytes it hashed. Decorators forward this to the source they wrap,
   * so the check is the innermost source's while the bytes pass through every decorator.
   *
   * @param expectedSize the size its item declares, or -1 when unknown
   */
  default InputStream verifying(BlobDigest digest, long expectedSize, InputStream in) {
    return new VerifyingInputStream(in, digest, expectedSize, () -> describe(digest));
  }

  @Override
  default void close() throws IOException {}
}
