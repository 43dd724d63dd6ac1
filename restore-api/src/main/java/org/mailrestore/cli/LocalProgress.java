package org.mailrestore.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.Restores;

/**
 * The progress of an operation this process runs, read from its row once a second: the same line
 * {@code watch} draws, so a local {@code restore run} is not silent until its end.
 */
final class LocalProgress implements AutoCloseable {
  private final ScheduledExecutorService poller;
  private final Progress progress;
  private volatile boolean drawn;

  private LocalProgress(Restores restores, String id, Progress progress) {
    this.progress = progress;
    this.poller = Progress.ticker();
    var unused = poller.scheduleWithFixedDelay(() -> draw(restores, id), 1, 1, TimeUnit.SECONDS);
  }

  /** Starts drawing: a line redrawn in place on a terminal, one every {@code every} elsewhere. */
  static LocalProgress start(Restores restores, String id, Duration every, PrintStream out) {
    boolean terminal = Progress.onTerminal(out);
    return new LocalProgress(restores, id, new Progress(out, terminal, every));
  }

  private void draw(Restores restores, String id) {
    try {
      Optional<OperationView> view = restores.find(id);
      if (view.isPresent() && !view.get().state().isFinished()) {
        progress.update(view.get());
        drawn = true;
      }
    } catch (Exception e) {
      // A progress line is not worth failing a restore for; the next tick tries again.
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
    try {
      poller.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (drawn) {
      progress.finish();
    }
  }
}
