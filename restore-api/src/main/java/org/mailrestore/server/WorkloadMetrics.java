package org.mailrestore.server;

import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.WorkloadGauges;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/** Refreshes the {@link WorkloadGauges} from the database every few seconds while it runs. */
@Component
class WorkloadMetrics implements SmartLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(WorkloadMetrics.class);
  private static final long EVERY_SECONDS = 5;

  private final WorkloadGauges gauges;
  private ScheduledExecutorService refresher;

  WorkloadMetrics(OperationStore operations, MeterRegistry registry) {
    this.gauges = new WorkloadGauges(operations, registry);
  }

  private void refresh() {
    try {
      gauges.refresh();
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
