package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.mailrestore.restore.bookkeeping.LeaseRenewer;
import org.mailrestore.restore.bookkeeping.LeaseStore;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.run.CancelSignal;
import org.mailrestore.restore.run.HeldLeases;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews this instance's leases (operations it coordinates, accounts it restores) a few times per
 * lease, on a connection of its own ({@link LeaseRenewer}), hears cancel requests made on other
 * instances, and records the time of the phases this instance coordinates ({@link PhaseClocks}).
 * Started by the first operation run here; a failure is logged and the next beat tries again.
 */
final class Heartbeat {

  private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

  /** How often the phases' time is recorded, at most. */
  private static final long PHASE_SECONDS = 5;

  private final OperationStore operations;
  private final LeaseRenewer renewer;
  private final String instanceId;
  private final int leaseSeconds;
  private final Map<String, CancelSignal> running;
  private final HeldLeases leases;
  private final PhaseClocks phases;
  private @Nullable ScheduledExecutorService scheduler;
  private boolean stopped;

  Heartbeat(
      OperationStore operations,
      LeaseStore leaseStore,
      String instanceId,
      int leaseSeconds,
      Map<String, CancelSignal> running,
      HeldLeases leases,
      PhaseClocks phases) {
    this.leases = leases;
    this.phases = phases;
    this.operations = operations;
    this.renewer = leaseStore.renewer();
    this.instanceId = instanceId;
    this.leaseSeconds = leaseSeconds;
    this.running = running;
  }

  /** Starts beating, unless it beats already or was stopped: a stop is for good. */
  synchronized void start() {
    // An operation still ending after its engine closed must not start a beat nobody stops.
    if (scheduler != null || stopped) {
      return;
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("restore-heartbeat").unstarted(r));
    long period = Math.max(1, leaseSeconds / 3);
    // beat() catches its own failures, so the schedule never dies and its future has nothing to
    // say.
    var unused = scheduler.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.SECONDS);
    // Phase times more often than leases: a process killed in a phase loses at most this much.
    long phasePeriod = Math.min(period, PHASE_SECONDS);
    unused =
        scheduler.scheduleWithFixedDelay(phases::beat, phasePeriod, phasePeriod, TimeUnit.SECONDS);
  }

  synchronized void stop() {
    stopped = true;
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
    renewer.close();
  }

  synchronized boolean isBeating() {
    return scheduler != null;
  }

  private void beat() {
    try {
      long started = System.nanoTime();
      leases.renewed(started, renewer.renew(instanceId, leaseSeconds));
      for (Map.Entry<String, CancelSignal> e : running.entrySet()) {
        if (operations.cancelRequested(e.getKey())) {
          e.getValue().raise(CancelSignal.Reason.CANCELLED);
        }
      }
    } catch (SQLException | RuntimeException e) {
      LOG.warn("heartbeat failed (leases may lapse): {}", e.getMessage());
    }
  }
}
