package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;

/**
 * The restore target for blobs. Implementations must be safe for concurrent use.
 *
 * <p>Contract (checked by {@code BlobVolumeContract} for every implementation):
 *
 * <ul>
 *   <li>{@link #write} consumes the stream to its end; when the stream fails (for example a {@link
 *       VerifyingInputStream} that detects a digest mismatch) nothing becomes visible.
 *   <li>A written blob is visible under its locator only when complete, and is on stable storage
 *       once {@link #sync()} returns. Callers sync before committing any row that points at it.
 *   <li>{@link #open} returns exactly the raw bytes that were written.
 * </ul>
 */
public interface BlobVolume extends AutoCloseable {

  /**
   * Writes a blob and returns where it is kept.
   *
   * @param sizeHint the expected raw size, or -1 when unknown; used for buffers and compression
   *     thresholds, never trusted for correctness
   */
  StoredBlob write(BlobDigest digest, long sizeHint, InputStream content) throws IOException;

  /** Opens the raw bytes of a blob written to this volume. */
  InputStream open(StoredBlob blob) throws IOException;

  /** Makes every blob written so far durable. */
  void sync() throws IOException;

  /** A short description for logs and messages, without secrets. */
  String describe();

  /**
   * Checks that the volume can be written now (a directory that exists and is writable, a bucket
   * that answers), without writing a blob: what a readiness probe asks.
   *
   * @throws IOException saying what is wrong
   */
  void check() throws IOException;

  @Override
  default void close() throws IOException {}
}
