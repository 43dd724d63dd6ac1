package org.mailrestore.restore.coordination;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.mailrestore.restore.run.CancelSignal;

/**
 * The operations this instance runs (or helps with) now, each with the signal that stops it. A
 * shutdown waits here for them to leave, and goes on as the last one does, not at a poll.
 */
final class RunningHere {

  private final Map<String, CancelSignal> running = new ConcurrentHashMap<>();

  /** Takes an operation in; false when it runs here already. */
  boolean enter(String operationId, CancelSignal cancel) {
    return running.putIfAbsent(operationId, cancel) == null;
  }

  /** An operation stops running here; a shutdown waiting for it is woken. */
  synchronized void leave(String operationId) {
    running.remove(operationId);
    notifyAll();
  }

  /** The signal of an operation running here, or null. */
  @Nullable CancelSignal signal(String operationId) {
    return running.get(operationId);
  }

  boolean contains(String operationId) {
    return running.containsKey(operationId);
  }

  /** The operations running here and their signals, as they change (the heartbeat reads it). */
  Map<String, CancelSignal> signals() {
    return Collections.unmodifiableMap(running);
  }

  /**
   * Raises {@code reason} on every operation running here, then waits up to {@code grace} for them
   * all to leave.
   */
  synchronized void stopAll(CancelSignal.Reason reason, Duration grace) {
    running.values().forEach(s -> s.raise(reason));
    try {
      MonitorWait.until(this, running::isEmpty, grace.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
