package org.mailrestore.target;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.restore.RestoreMetrics;

/**
 * What the engine lends a target for one account's phase 2: the source's blobs and the engine's
 * bounds, shared by every account and operation of the engine.
 *
 * @param blobs the source's blobs, read by digest (content that is not passing)
 * @param io runs copies and other work in parallel (virtual threads; the permits bound them)
 * @param transfers content copies in flight over all accounts
 * @param largeTransfers copies of large content in flight (they hold bigger buffers)
 */
public record WriteContext(
    String operationId,
    String sourceAccountId,
    BlobSource blobs,
    ExecutorService io,
    Semaphore transfers,
    Semaphore largeTransfers,
    RestoreMetrics metrics) {

  /** Content from this size on also takes a large-transfer permit. */
  public static final long LARGE_CONTENT = 8L << 20;
}
