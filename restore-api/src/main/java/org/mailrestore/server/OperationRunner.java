package org.mailrestore.server;

import org.mailrestore.restore.Restores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Ties the engine's background work to the service's life: from start, every {@code
 * mailrestore.assist-interval}, interrupted operations are resumed and others' phase-2 accounts
 * helped with; on shutdown, the operations running here stop gracefully (clusters in flight commit,
 * the operations stay resumable).
 */
@Component
class OperationRunner implements SmartLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(OperationRunner.class);

  private final Restores restores;
  private final ServerSettings settings;
  private volatile boolean running;

  OperationRunner(Restores restores, ServerSettings settings) {
    this.restores = restores;
    this.settings = settings;
  }

  @Override
  public void start() {
    running = true;
    restores.startBackground(settings.assistInterval());
  }

  @Override
  public void stop() {
    running = false;
    LOG.info("stopping: operations here finish their clusters in flight and stay resumable");
    restores.shutdown(settings.shutdownGrace());
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
