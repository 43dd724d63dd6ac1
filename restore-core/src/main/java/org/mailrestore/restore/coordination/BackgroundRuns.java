package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs operations in the background of this instance: those asked for here, and, once scanning,
 * every interval, those left interrupted by a crash or a shutdown (resumed) and those in phase 2
 * with accounts nobody holds (helped). On shutdown, stops them gracefully: clusters in flight
 * commit and the operations stay resumable.
 */
public final class BackgroundRuns implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundRuns.class);

  private final RestoreEngine engine;
  private final ExecutorService runs = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, Future<?>> active = new ConcurrentHashMap<>();

  /** Runs here stopped by an Error of the JVM (out of memory, say), until run again. */
  private final Map<String, Error> stoppedBy = new ConcurrentHashMap<>();

  private @Nullable ScheduledExecutorService scanner;
  private volatile boolean stopping;

  public BackgroundRuns(RestoreEngine engine) {
    this.engine = engine;
  }

  /**
   * Runs an operation just submitted here; one cancelled meanwhile (before this thread looked at
   * it) stays as it ended.
   */
  public void start(String operationId) {
    launch(operationId, false);
  }

  /** Runs (or resumes, or helps with) an operation here, unless it runs here already. */
  public void run(String operationId) {
    launch(operationId, true);
  }

  private void launch(String operationId, boolean asked) {
    if (stopping) {
      return;
    }
    stoppedBy.remove(operationId);
    active.computeIfAbsent(
        operationId,
        id ->
            runs.submit(() -> {
              try {
                if (asked) {
                  engine.run(id);
                } else {
                  engine.runUnlessEnded(id);
                }
              } catch (SQLException e) {
                LOG.warn("operation {} stopped (resumed later): {}", id, e.getMessage());
              } catch (RuntimeException e) {
                LOG.error("operation {} stopped (resumed later)", id, e);
              } catch (Error e) {
                // The operation stays resumable (its clusters committed are kept); who waits for
                // it here must learn that no run of it goes on, and why.
                stoppedBy.put(id, e);
                LOG.error("operation {} stopped by an error of the JVM (resumable): {}", id, e, e);
              } finally {
                active.remove(id);
              }
            }));
  }

  /**
   * The Error that stopped this instance's run of an operation (it stays RUNNING, resumable), or
   * null when none did since it was last run here.
   */
  public @Nullable Error stoppedBy(String operationId) {
    return stoppedBy.get(operationId);
  }

  /** Whether this instance runs (or helps with) the operation now. */
  public boolean isActive(String operationId) {
    return active.containsKey(operationId) || engine.isRunning(operationId);
  }

  /**
   * Waits, at most {@code timeout}, for this instance's run of an operation to end (an operation
   * that has just ended in the database is still wrapping up here for a moment).
   */
  public void awaitEnd(String operationId, Duration timeout) {
    Future<?> run = active.get(operationId);
    if (run == null) {
      return;
    }
    try {
      run.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Still running, or ended by a fault the run logged: the caller looks again.
    }
  }

  /** Whether this instance is stopping: what it stopped stays resumable. */
  public boolean isStopping() {
    return stopping;
  }

  /** Looks for interrupted operations to resume and phase-2 accounts to help with, every period. */
  public synchronized void startScanning(Duration every) {
    if (scanner != null || stopping) {
      return;
    }
    scanner =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("operation-scanner").unstarted(r));
    long millis = Math.max(1, every.toMillis());
    var unused = scanner.scheduleWithFixedDelay(this::scan, 0, millis, TimeUnit.MILLISECONDS);
  }

  private void scan() {
    try {
      for (String id : engine.interrupted()) {
        if (!isActive(id)) {
          LOG.info("operation {} was interrupted; resuming it", id);
          launch(id, false);
        }
      }
      for (String id : engine.needingHelp()) {
        if (!isActive(id) && !stopping) {
          var unused = runs.submit(() -> assist(id));
        }
      }
    } catch (SQLException | RuntimeException e) {
      LOG.warn("cannot look for operations to resume: {}", e.getMessage());
    }
  }

  private void assist(String id) {
    try {
      engine.assist(id);
    } catch (SQLException | RuntimeException e) {
      LOG.warn("cannot help with operation {}: {}", id, e.getMessage());
    }
  }

  /**
   * Stops every operation running here: no new cluster starts, clusters in flight commit within
   * {@code grace}, and the operations stay resumable by the next start.
   */
  public void shutdown(Duration grace) {
    stopping = true;
    synchronized (this) {
      if (scanner != null) {
        scanner.shutdownNow();
      }
    }
    engine.shutdown(grace);
    runs.shutdown();
  }

  /** Stops at once: clusters in flight are not waited for. */
  @Override
  public void close() {
    shutdown(Duration.ZERO);
  }
}
