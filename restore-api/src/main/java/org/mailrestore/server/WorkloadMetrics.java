package org.mailrestore.server;

import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.Restores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/** Refreshes the gauges of the work in the database every few seconds while it runs. */
@Component
class WorkloadMetrics implements SmartLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(WorkloadMetrics.class);
  private static final long EVERY_SECONDS = 5;

  private final Restores restores;
  private ScheduledExecutorService refresher;

  WorkloadMetrics(Restores restores) {
    this.restores = restores;
  }

  private void refresh() {
    try {
      restores.refreshWorkloadGauges();
    } catch (SQLException | RuntimeException e) {
      LOG.debug("workload gauges kept their last values: {}", e.getMessage());
    }
  }

  @Override
  public void start() {
    refresher =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("workload-metrics").unstarted(r));
    var unused =
        refresher.scheduleWithFixedDelay(this::refresh, 0, EVERY_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public void stop() {
    if (refresher != null) {
      refresher.shutdownNow();
      refresher = null;
    }
  }

  @Override
  public boolean isRunning() {
    return refresher != null;
  }
}
