package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * mailrestore as a user runs it: a fresh process through the {@code mailrestore} launcher, timed
 * from its start to its exit, with its CPU and maximum RSS from {@code /usr/bin/time}.
 */
final class ColdCli {

  static final Path TIME = Path.of("/usr/bin/time");

  /** Wall seconds, CPU seconds (user + system) and maximum RSS of one run. */
  record Measured(double seconds, double cpuSeconds, long maxRssKib, String output) {}

  private final Path launcher;

  private ColdCli(Path launcher) {
    this.launcher = launcher;
  }

  /**
   * The launcher of this checkout ({@code MAILRESTORE_LAUNCHER}, set by {@code ./benchmark}), run
   * once unmeasured: it builds its jar when the sources are newer and makes its start-up cache.
   */
  static ColdCli prepared() throws IOException, InterruptedException {
    if (!Files.isExecutable(TIME)) {
      throw new IllegalStateException(
          TIME + " is missing: apt-get install time (Debian) to measure a cold run");
    }
    Path launcher =
        Path.of(System.getenv().getOrDefault("MAILRESTORE_LAUNCHER", "mailrestore"))
            .toAbsolutePath();
    Processes.run(List.of(launcher.toString(), "--version"), null);
    return new ColdCli(launcher);
  }

  String describe() {
    return "a cold CLI process (" + launcher + ")";
  }

  /** Runs a restore, {@code mailrestore <arguments>}, that must restore everything. */
  Measured run(List<String> arguments, Map<String, String> environment, Path scratch)
      throws IOException, InterruptedException {
    return run(arguments, environment, scratch, List.of("COMPLETED", " 0 failed"));
  }

  /**
   * Runs {@code mailrestore <arguments>}, whose output must hold each of {@code expected}; {@code
   * scratch} holds the timing file.
   */
  Measured run(
      List<String> arguments, Map<String, String> environment, Path scratch, List<String> expected)
      throws IOException, InterruptedException {
    Path timing = Files.createTempFile(scratch, "cold", ".time");
    List<String> command =
        new ArrayList<>(
            List.of(
                TIME.toString(),
                "-o",
                timing.toString(),
                "-f",
                "%e %U %S %M",
                launcher.toString()));
    command.addAll(arguments);
    long start = System.nanoTime();
    String out = Processes.run(command, null, environment);
    double seconds = (System.nanoTime() - start) / 1e9;
    for (String wanted : expected) {
      if (!out.contains(wanted)) {
        throw new IllegalStateException(
            "mailrestore " + arguments.getFirst() + " did not say \"" + wanted + "\":\n" + out);
      }
    }
    String[] t = Files.readString(timing).strip().split("\\s+");
    return new Measured(
        seconds, Double.parseDouble(t[1]) + Double.parseDouble(t[2]), Long.parseLong(t[3]), out);
  }
}
