package org.mailrestore.restore.run;

import java.sql.SQLException;
import org.mailrestore.restore.Pace;
import org.mailrestore.restore.bookkeeping.ThrottleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds one operation on this instance to its {@link Pace}: each item (and its bytes) reserves its
 * share of time, and a reader waits until its reservation comes. At most one second of unused pace
 * is saved up, so the rate over any minute stays within a few percent of the bound. The pace is
 * read again every {@link #REFRESH_NANOS}, so a change through the API applies within seconds.
 */
public final class Throttle {
  private static final Logger LOG = LoggerFactory.getLogger(Throttle.class);
  private static final long REFRESH_NANOS = 2_000_000_000L;
  private static final long BURST_NANOS = 1_000_000_000L;

  /** Where the pace is read from (the engine's {@code restore_throttle} table). */
  @FunctionalInterface
  public interface PaceSource {
    Pace get(String operationId) throws SQLException;
  }

  private final PaceSource store;
  private final String operationId;
  private Pace pace = Pace.UNLIMITED;
  private long readAt;
  private long next; // when the next reservation may start (nanoTime)
  private boolean read; // the pace was read once: then every REFRESH_NANOS, not every item
  private boolean started; // a limited pace is being kept: next is meaningful

  public Throttle(ThrottleStore store, String operationId) {
    this(store::get, operationId);
  }

  public Throttle(PaceSource store, String operationId) {
    this.store = store;
    this.operationId = operationId;
  }

  /**
   * Waits until {@code items} items of {@code bytes} bytes may go; returns false when cancelled
   * while waiting.
   */
  public boolean acquire(long items, long bytes, CancelSignal cancel) {
    long wait;
    synchronized (this) {
      long now = System.nanoTime();
      if (!read || now - readAt > REFRESH_NANOS) {
        read = true;
        readAt = now;
        try {
          pace = store.get(operationId);
        } catch (SQLException e) {
          // The database is away (the restore's own calls ride it out): keep the pace known.
          LOG.debug("operation {}: pace not read: {}", operationId, e.toString());
        }
      }
      if (!pace.isLimited()) {
        started = false;
        return true;
      }
      if (!started) {
        next = now;
        started = true;
      }
      double seconds = 0;
      if (pace.itemsPerSecond() != null) {
        seconds = Math.max(seconds, items / pace.itemsPerSecond());
      }
      if (pace.bytesPerSecond() != null) {
        seconds = Math.max(seconds, bytes / pace.bytesPerSecond());
      }
      long start = Math.max(next, now - BURST_NANOS);
      next = start + (long) (seconds * 1e9);
      wait = start - now;
    }
    while (wait > 0) {
      if (cancel.raised()) {
        return false;
      }
      long slice = Math.min(wait, 200_000_000L);
      try {
        Thread.sleep(slice / 1_000_000L, (int) (slice % 1_000_000L));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      wait -= slice;
    }
    return true;
  }
}
