package org.mailrestore.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.mailrestore.restore.ReadCounter;
import picocli.CommandLine.Option;

/**
 * The progress of a command that reads mail back (verify, export): accounts, messages, folders and
 * other items by name, bytes, rate and ETA; a line redrawn in place on a terminal, one every {@code
 * --every} seconds otherwise.
 */
final class ReadProgress {

  @Option(
      names = "--every",
      defaultValue = "10",
      description =
          "Seconds between progress lines when not on a terminal (default: ${DEFAULT-VALUE})")
  int every;

  /** Draws the counter's progress until closed. */
  Running start(String what, ReadCounter counter, PrintStream out) {
    return new Running(what, counter, out, Duration.ofSeconds(Math.max(1, every)));
  }

  static final class Running implements AutoCloseable {
    private final String what;
    private final ReadCounter counter;
    private final PrintStream out;
    private final boolean terminal;
    private final long started = System.nanoTime();
    private final ScheduledExecutorService ticker = Progress.ticker();
    private volatile boolean drawn;

    Running(String what, ReadCounter counter, PrintStream out, Duration every) {
      this.what = what;
      this.counter = counter;
      this.out = out;
      this.terminal = Progress.onTerminal(out);
      long period = terminal ? 1000 : every.toMillis();
      var unused = ticker.scheduleAtFixedRate(this::draw, period, period, TimeUnit.MILLISECONDS);
    }

    private void draw() {
      String line = line(what, counter.snapshot(), (System.nanoTime() - started) / 1e9);
      if (terminal) {
        out.print("\r" + line + "   ");
        out.flush();
      } else {
        out.println(line);
      }
      drawn = true;
    }

    @Override
    public void close() {
      ticker.shutdownNow();
      if (terminal && drawn) {
        out.println();
      }
    }
  }

  static String line(String what, ReadCounter.Snapshot s, double seconds) {
    long done = Math.max(0, s.accounts() - 1); // the last one opened is still being read
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-8s ", what));
    if (s.accountsTotal() > 0) {
      b.append(Report.count(done)).append('/').append(Report.count(s.accountsTotal()));
      b.append(" accounts, ");
    } else {
      b.append("account ").append(Report.count(s.accounts())).append(", ");
    }
    b.append(
        String.format(
            Locale.ROOT,
            "%s messages, %s folders, %s other items",
            Report.count(s.messages()),
            Report.count(s.folders()),
            Report.count(s.other())));
    if (s.bytes() > 0) {
      b.append(String.format(Locale.ROOT, ", %.1f MB", s.bytes() / 1e6));
    }
    if (seconds > 0) {
      b.append(String.format(Locale.ROOT, ", %,.0f items/s", s.items() / seconds));
    }
    if (done > 0 && s.accountsTotal() > done) {
      long left = (long) (seconds * (s.accountsTotal() - done) / done);
      b.append(", ETA ").append(Progress.duration(left));
    }
    return b.toString();
  }
}
