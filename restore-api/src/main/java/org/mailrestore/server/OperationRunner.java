package org.mailrestore.server;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.RestoreEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs operations in the background of the service: those submitted here, and, every {@code
 * mailrestore.assist-interval}, those left interrupted by a crash or a shutdown (resumed) and those
 * in phase 2 with accounts nobody holds (helped). On shutdown, stops them gracefully: clusters in
 * flight commit and the operations stay resumable.
 */
@Component
public class OperationRunner implements SmartLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(OperationRunner.class);

  private final RestoreEngine engine;
  private final ServerSettings settings;
  private final ExecutorService runs = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, Future<?>> active = new ConcurrentHashMap<>();
  private ScheduledExecutorService scanner;
  private volatile boolean running;

  OperationRunner(RestoreEngine engine, ServerSettings settings) {
    this.engine = engine;
    this.settings = settings;
  }

  /** Runs (or resumes) an operation here, unless it already runs here. */
  public void run(String operationId) {
    launch(operationId, true);
  }

  private void launch(String operationId, boolean asked) {
    active.computeIfAbsent(
        operationId,
        id ->
            runs.submit(() -> {
              try {
                if (asked) {
                  engine.run(id);
                } else {
                  engine.resumeInterrupted(id);
                }
              } catch (SQLException e) {
                LOG.warn("operation {} stopped (resumed later): {}", id, e.getMessage());
              } catch (RuntimeException e) {
                LOG.error("operation {} stopped (resumed later)", id, e);
              } finally {
                active.remove(id);
              }
            }));
  }

  public boolean isActive(String operationId) {
    return active.containsKey(operationId) || engine.isRunning(operationId);
  }

  /** Looks for interrupted operations to resume and for phase-2 accounts to help with. */
  private void scan() {
    try {
      for (String id : engine.interrupted()) {
        if (!isActive(id)) {
          LOG.info("operation {} was interrupted; resuming it", id);
          launch(id, false);
        }
      }
      for (String id : engine.needingHelp()) {
        if (!isActive(id)) {
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

  @Override
  public void start() {
    running = true;
    scanner =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("operation-scanner").unstarted(r));
    long every = Math.max(1, settings.assistInterval().toMillis());
    var unused = scanner.scheduleWithFixedDelay(this::scan, 0, every, TimeUnit.MILLISECONDS);
  }

  @Override
  public void stop() {
    running = false;
    if (scanner != null) {
      scanner.shutdownNow();
    }
    LOG.info("stopping: operations here finish their clusters in flight and stay resumable");
    engine.shutdown(settings.shutdownGrace());
    runs.shutdown();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Stops after the web server has stopped taking requests (a lower phase stops later). */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE - 4096;
  }
}
