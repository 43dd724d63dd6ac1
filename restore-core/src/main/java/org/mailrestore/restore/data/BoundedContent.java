package org.mailrestore.restore.data;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.destination.SourceContent;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.run.Workers;

/**
 * Lends a target the source's content within the engine's bound on copies in flight: a turn of
 * {@code transfers} for each read, and one of {@code largeTransfers} too for large content, timed
 * and its queue counted in the metrics.
 */
final class BoundedContent implements SourceContent {

  private final BlobSource blobs;
  private final Semaphore transfers;
  private final Semaphore largeTransfers;
  private final int turns;
  private final RestoreMetrics metrics;

  BoundedContent(BlobSource blobs, Workers workers, RestoreMetrics metrics) {
    this.blobs = blobs;
    this.turns = workers.concurrency().blobTransfers();
    this.transfers = workers.transfers();
    this.largeTransfers = workers.largeTransfers();
    this.metrics = metrics;
  }

  @Override
  public int turns() {
    return turns;
  }

  @Override
  public <T> T read(BlobDigest digest, long size, Reading<T> reading)
      throws IOException, InterruptedException {
    boolean large = size >= LARGE;
    metrics.blobTransferWaiting(1);
    try {
      transfers.acquire();
      if (large) {
        try {
          largeTransfers.acquire();
        } catch (InterruptedException e) {
          transfers.release();
          throw e;
        }
      }
    } finally {
      metrics.blobTransferWaiting(-1);
    }
    long started = System.nanoTime();
    try (InputStream in = blobs.openVerified(digest, size)) {
      return reading.read(in);
    } finally {
      if (large) {
        largeTransfers.release();
      }
      transfers.release();
      metrics.blobTransfer().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    }
  }
}
