package org.mailrestore.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.mailrestore.restore.OperationView;

/**
 * Progress of a running operation: a line redrawn in place on a terminal (phase, accounts, a bar,
 * items/s, MB/s, ETA); a new line every so often, or when the phase changes, elsewhere.
 */
final class Progress {
  private static final int BAR = 24;
  private final PrintStream out;
  private final boolean terminal;
  private final Duration every;
  private Instant lastLine = Instant.EPOCH;
  private String lastPhase = "";
  private boolean drawn;

  Progress(PrintStream out, boolean terminal, Duration every) {
    this.out = out;
    this.terminal = terminal;
    this.every = every;
  }

  /**
   * Whether standard output is a terminal. Java 22+ answers with Console.isTerminal() (before,
   * System.console() was null when redirected); called reflectively to build for Java 21.
   */
  static boolean onTerminal() {
    var console = System.console();
    if (console == null || "dumb".equals(System.getenv("TERM"))) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // Java 21: a console exists only on a terminal
    }
  }

  /**
   * Whether {@code out} goes to a terminal: standard output as {@link #onTerminal()} tells, else
   * standard error when there is a console at all.
   */
  static boolean onTerminal(PrintStream out) {
    return out == System.out ? onTerminal() : System.console() != null;
  }

  /** A daemon thread that draws progress lines: it never keeps a finished command alive. */
  static ScheduledExecutorService ticker() {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "progress");
      t.setDaemon(true);
      return t;
    });
  }

  void update(OperationView v) {
    String line = line(v);
    if (terminal) {
      out.print("\r" + line + "   ");
      out.flush();
      drawn = true;
      return;
    }
    String phase = v.state() + "/" + v.phase();
    Instant now = Instant.now();
    if (!phase.equals(lastPhase) || !now.isBefore(lastLine.plus(every))) {
      out.println(line);
      lastLine = now;
      lastPhase = phase;
    }
  }

  /** Ends a line left open on a terminal, so what is printed next starts on its own line. */
  void finish() {
    if (terminal && drawn) {
      out.println();
      drawn = false;
    }
  }

  void end(OperationView v) {
    if (terminal && drawn) {
      out.print("\r" + line(v) + "   ");
      out.println();
    } else {
      out.println(line(v));
    }
  }

  static String line(OperationView v) {
    var c = v.counts();
    double done = c.accounts() == 0 ? 0 : (double) c.accountsDone() / c.accounts();
    int filled = (int) Math.round(done * BAR);
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            java.util.Locale.ROOT,
            "%-9s %-12s [%s%s] %s/%s accounts, %s items (all kinds)",
            v.state(),
            v.phase() == null ? "-" : v.phase(),
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            Report.count(c.accountsDone()),
            Report.count(c.accounts()),
            Report.count(c.itemsRestored() + c.itemsSkipped())));
    if (v.rates() != null) {
      sb.append(
          String.format(
              java.util.Locale.ROOT,
              ", %,.0f items/s, %.1f MB/s",
              v.rates().itemsPerSecond(),
              v.rates().bytesPerSecond() / 1e6));
    }
    if (v.eta() != null) {
      long seconds = Math.max(0, Duration.between(Instant.now(), v.eta()).toSeconds());
      sb.append(", ETA ").append(duration(seconds));
    }
    if (c.errors() > 0) {
      sb.append(", ").append(Report.count(c.errors())).append(" errors");
    }
    return sb.toString();
  }

  /** A remaining time as people read it: {@code 45s}, {@code 12m 05s}, {@code 1h 23m}. */
  static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format(java.util.Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
    }
    return String.format(java.util.Locale.ROOT, "%dh %02dm", seconds / 3600, seconds % 3600 / 60);
  }
}
