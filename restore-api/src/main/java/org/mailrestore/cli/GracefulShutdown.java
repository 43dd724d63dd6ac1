package org.mailrestore.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.Restores;

/**
 * Turns SIGTERM (and Ctrl-C) into a graceful stop of a restore running in this process: no new
 * cluster starts, clusters in flight commit, leases are released so a resumed run need not wait for
 * them. The JVM exits once the command has reported, or after the grace period.
 */
final class GracefulShutdown implements AutoCloseable {

  private final Thread hook;
  private final CountDownLatch reported = new CountDownLatch(1);
  private volatile boolean requested;

  private GracefulShutdown(Restores restores, Duration grace) {
    this.hook =
        new Thread(
            () -> {
              requested = true;
              restores.shutdown(grace);
              try {
                // Let the command print where it stopped before the JVM goes.
                var unused = reported.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "mailrestore-shutdown");
  }

  static GracefulShutdown install(Restores restores, Duration grace) {
    GracefulShutdown shutdown = new GracefulShutdown(restores, grace);
    Runtime.getRuntime().addShutdownHook(shutdown.hook);
    return shutdown;
  }

  /** Whether the process is stopping: the restore returned because of a signal. */
  boolean requested() {
    return requested;
  }

  @Override
  public void close() {
    reported.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down already: the hook is running and waits for reported.
    }
  }
}
