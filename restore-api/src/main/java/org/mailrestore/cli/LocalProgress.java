package org.mailrestore.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.server.api.OperationView;

/**
 * The progress of an operation this process runs, read from its row once a second: the same line
 * {@code watch} draws, so a local {@code restore run} is not silent until its end.
 */
final class LocalProgress implements AutoCloseable {
  private final ScheduledExecutorService poller;
  private final Progress progress;
  private volatile boolean drawn;

  private LocalProgress(OperationStore operations, String id, Progress progress) {
    this.progress = progress;
    this.poller = Progress.ticker();
    var unused = poller.scheduleWithFixedDelay(() -> draw(operations, id), 1, 1, TimeUnit.SECONDS);
  }

  /** Starts drawing: a line redrawn in place on a terminal, one every {@code every} elsewhere. */
  static LocalProgress start(
      OperationStore operations, String id, Duration every, PrintStream out) {
    boolean terminal = Progress.onTerminal(out);
    return new LocalProgress(operations, id, new Progress(out, terminal, every));
  }

  private void draw(OperationStore operations, String id) {
    try {
      Optional<OperationSummary> s = operations.find(id);
      if (s.isPresent() && !s.get().state().isFinished()) {
        progress.update(OperationView.of(s.get(), Instant.now()));
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
