package org.mailrestore.restore.coordination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the phases this instance coordinates and times them into their operation's row as they pass
 * (every few seconds, on the heartbeat's scheduler) and at their end: a process killed in a phase
 * loses at most that much of its time, and the run that resumes it adds its own part.
 */
final class PhaseClocks {

  private static final Logger LOG = LoggerFactory.getLogger(PhaseClocks.class);

  private final OperationStore operations;
  private final RestoreMetrics metrics;
  private final Set<Clock> open = ConcurrentHashMap.newKeySet();

  PhaseClocks(OperationStore operations, RestoreMetrics metrics) {
    this.operations = operations;
    this.metrics = metrics;
  }

  /** A phase's work. */
  @FunctionalInterface
  interface PhaseWork {
    void run() throws SQLException, IOException;
  }

  /**
   * Makes {@code phase} the operation's phase, runs its work and times it.
   *
   * @param carriedMillis time spent on the phase before (helping with phase 2 while a coordinator
   *     that turned out dead held the operation), part of the phase's time
   */
  void run(String operationId, Phase phase, long carriedMillis, PhaseWork work)
      throws SQLException, IOException {
    operations.enterPhase(operationId, phase);
    try (Clock clock = start(operationId, phase, carriedMillis)) {
      work.run();
      metrics.phase(phase, clock.elapsedMillis());
    }
  }

  /** Starts timing a phase of an operation; the carried time is added with the first record. */
  private Clock start(String operationId, Phase phase, long carriedMillis) {
    Clock clock = new Clock(operationId, phase, carriedMillis);
    open.add(clock);
    return clock;
  }

  /** Adds the time of every open phase since the last beat (the heartbeat's call). */
  void beat() {
    for (Clock clock : open) {
      try {
        clock.record();
      } catch (SQLException | RuntimeException e) {
        // The schedule must not die; the phase's end records what is still due.
        LOG.warn("cannot record the time of phase {}: {}", clock.phase, e.getMessage());
      }
    }
  }

  /** One phase of one operation, on this instance. */
  final class Clock implements AutoCloseable {
    private final String operationId;
    private final Phase phase;
    private final long started = System.nanoTime();
    private long recordedNanos;
    private long carriedMillis;

    private Clock(String operationId, Phase phase, long carriedMillis) {
      this.operationId = operationId;
      this.phase = phase;
      this.carriedMillis = carriedMillis;
    }

    /** Milliseconds since the clock started (the carried time not included). */
    long elapsedMillis() {
      return (System.nanoTime() - started) / 1_000_000;
    }

    private synchronized void record() throws SQLException {
      long due = (System.nanoTime() - started - recordedNanos) / 1_000_000;
      if (due + carriedMillis <= 0) {
        return;
      }
      operations.addPhaseTime(operationId, phase, due + carriedMillis);
      recordedNanos += due * 1_000_000;
      carriedMillis = 0;
    }

    /** Records the time not recorded yet: the phase ended here (or failed). */
    @Override
    public void close() throws SQLException {
      open.remove(this);
      record();
    }
  }
}
