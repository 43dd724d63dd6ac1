package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The phases this instance coordinates, timed into their operation's row as they pass (at each
 * heartbeat) and at their end: a process killed in a phase loses at most a beat of its time, and
 * the run that resumes it adds its own part.
 */
final class PhaseClocks {

  private static final Logger LOG = LoggerFactory.getLogger(PhaseClocks.class);

  private final OperationStore operations;
  private final Map<Clock, Boolean> open = new ConcurrentHashMap<>();

  PhaseClocks(OperationStore operations) {
    this.operations = operations;
  }

  /**
   * Starts timing a phase of an operation.
   *
   * @param carriedMillis time spent on the phase before this clock started (helping with phase 2
   *     while a coordinator that turned out dead held the operation), added with the first beat
   */
  Clock start(String operationId, Phase phase, long carriedMillis) {
    Clock clock = new Clock(operationId, phase, carriedMillis);
    open.put(clock, Boolean.TRUE);
    return clock;
  }

  /** Adds the time of every open phase since the last beat (the heartbeat's call). */
  void beat() {
    for (Clock clock : open.keySet()) {
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
