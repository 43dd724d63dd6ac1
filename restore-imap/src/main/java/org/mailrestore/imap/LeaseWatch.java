package org.mailrestore.imap;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.LeaseLostException;

/**
 * Watches a lease while commands sent under it are on their way (decision 0043). Checking before
 * each command's final CRLF is not enough on a network that breaks: bytes handed to the kernel just
 * before a partition stay in its send queue and are delivered when the network heals, long after
 * the lease ran out and another instance took the account over. When the lease runs out while a
 * pipeline is outstanding, the watch resets the connection, which makes the kernel drop what the
 * server has not acknowledged: what did not arrive before the lease ended never arrives.
 */
final class LeaseWatch implements AutoCloseable {

  /** How often a lease is looked at; small against the third of a lease kept as a margin. */
  private static final long PERIOD_MILLIS = 100;

  private static final ScheduledExecutorService CLOCK =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().daemon().name("imap-lease-watch").unstarted(r));

  private final Lease lease;
  private final Runnable reset;
  private final ScheduledFuture<?> task;
  private volatile boolean fired;

  private LeaseWatch(Lease lease, Runnable reset) {
    this.lease = lease;
    this.reset = reset;
    this.task =
        CLOCK.scheduleWithFixedDelay(
            this::look, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Starts watching; {@code reset} runs once, on the watch's thread, if the lease is lost. */
  static LeaseWatch start(Lease lease, Runnable reset) {
    return new LeaseWatch(lease, reset);
  }

  private void look() {
    if (fired) {
      return;
    }
    try {
      lease.check();
    } catch (LeaseLostException e) {
      fired = true;
      task.cancel(false);
      reset.run();
    }
  }

  /** Whether the lease ran out while watched (and the connection was reset). */
  boolean fired() {
    return fired;
  }

  @Override
  public void close() {
    task.cancel(false);
  }
}
