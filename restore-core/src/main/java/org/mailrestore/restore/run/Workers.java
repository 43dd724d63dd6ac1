package org.mailrestore.restore.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.mailrestore.restore.Concurrency;

/**
 * How much runs at once for one operation on this instance.
 *
 * @param concurrency the bounds for this operation (the request may lower the engine's)
 * @param transfers content copies in flight, shared by all operations of the engine
 * @param largeTransfers copies of large content in flight (they hold bigger buffers)
 * @param io runs accounts, clusters and copies (virtual threads; the permits bound them)
 */
public record Workers(
    Concurrency concurrency, Semaphore transfers, Semaphore largeTransfers, ExecutorService io) {

  /**
   * Runs {@code count} copies of {@code worker} on {@link #io} and waits for all of them: none
   * outlives the call. The first failure is thrown once every copy has ended (an {@link
   * IOException} as an {@link UncheckedIOException}).
   *
   * @param doing what the workers do, for the message of an interrupted wait
   */
  public void runAll(int count, Callable<?> worker, String doing) throws SQLException {
    List<Future<?>> running = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      running.add(io.submit(worker));
    }
    Throwable failure = null;
    for (Future<?> copy : running) {
      try {
        copy.get();
      } catch (ExecutionException e) {
        failure = failure != null ? failure : e.getCause();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while " + doing, e);
      }
    }
    if (failure instanceof IOException io) {
      throw new UncheckedIOException(io); // the source or the target, not the database
    }
    if (failure != null) {
      throw DatabaseRetry.asSql(failure);
    }
  }
}
