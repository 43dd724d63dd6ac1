package org.mailrestore.restore.data;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.run.DatabaseRetry;

/**
 * At most {@code limit} clusters of one account at once: submitting blocks until one finishes,
 * which holds back decoding (backpressure). The first failure is rethrown, once the others
 * finished.
 */
final class ClustersInFlight {

  /** The work of one cluster. */
  @FunctionalInterface
  interface Task {
    void run() throws SQLException;
  }

  private final Semaphore slots;
  private final ExecutorService io;
  private final RestoreMetrics metrics;
  private final List<Future<?>> running = new ArrayList<>();

  ClustersInFlight(int limit, ExecutorService io, RestoreMetrics metrics) {
    this.slots = new Semaphore(limit);
    this.io = io;
    this.metrics = metrics;
  }

  void submit(Task task) throws SQLException {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for a cluster slot", e);
    }
    rethrowFailures(false);
    metrics.clusterStarted();
    running.add(
        io.submit(() -> {
          try {
            task.run();
            return null;
          } finally {
            metrics.clusterFinished();
            slots.release();
          }
        }));
  }

  /** Waits for every cluster submitted; rethrows the first failure. */
  void awaitAll() throws SQLException {
    rethrowFailures(true);
  }

  private void rethrowFailures(boolean wait) throws SQLException {
    for (var it = running.iterator(); it.hasNext(); ) {
      Future<?> future = it.next();
      if (!wait && !future.isDone()) {
        continue;
      }
      it.remove();
      try {
        future.get();
      } catch (ExecutionException e) {
        // Let the other clusters finish before failing the account.
        for (Future<?> other : running) {
          awaitQuietly(other);
        }
        running.clear();
        throw DatabaseRetry.asSql(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while waiting for clusters", e);
      }
    }
  }

  private static void awaitQuietly(Future<?> future) {
    try {
      future.get();
    } catch (ExecutionException e) {
      // The first failure is the one reported.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
