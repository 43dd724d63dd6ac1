package org.mailrestore.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.mailrestore.mail.Json;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * Every benchmark of docs/benchmarks.md in one run: each scenario prints its own table next to its
 * limits, then a summary table gathers the headline figures, and one JSON file holds them all.
 */
@Command(
    name = "suite",
    mixinStandardHelpOptions = true,
    description =
        "Every scenario of docs/benchmarks.md, one after the other, then a summary table and one"
            + " JSON file. --mode quick takes under 10 minutes on 2 cores; full about 45.")
final class SuiteCommand implements Callable<Integer> {

  /** Sizes of a mode. */
  enum Mode {
    QUICK,
    FULL
  }

  @Option(
      names = "--mode",
      defaultValue = "quick",
      description = "quick or full (default: ${DEFAULT-VALUE})")
  String mode;

  @Option(
      names = "--json",
      defaultValue = "benchmark-results.json",
      description = "Where to write every result (default: ${DEFAULT-VALUE})")
  Path json;

  @Option(
      names = "--skip",
      split = ",",
      description = "Scenarios to leave out (e.g. peer,imap where Dovecot is not installed)")
  List<String> skip = List.of();

  /** One scenario: a name, what it shows, and the benchmark command line that measures it. */
  record Scenario(String name, String shows, List<String> args) {}

  static List<Scenario> scenarios(Mode mode) {
    boolean quick = mode == Mode.QUICK;
    return List.of(
        new Scenario(
            "writer",
            "batched cluster writes vs raw batched INSERTs, and the naive baseline (one item, one"
                + " commit)",
            List.of("writer", "--items", quick ? "200000" : "1000000")),
        new Scenario(
            "blobs",
            "file-per-blob and packed volumes vs raw durable copies; a large attachment"
                + " (128/256 MiB); S3 with 15 ms latency",
            quick ? List.of("blobs", "--quick", "--large-mib", "128") : List.of("blobs")),
        new Scenario(
            "many-small-accounts",
            "a whole restore of many small accounts, packed volume",
            List.of(
                "restore",
                "--accounts",
                quick ? "400" : "2000",
                "--items",
                quick ? "60000" : "200000")),
        new Scenario(
            "twenty-accounts",
            "a whole restore of 20 accounts with the generator's realistic sizes, packed volume",
            List.of("restore", "--accounts", "20", "--items", quick ? "100000" : "500000")),
        new Scenario(
            "one-large-account",
            "a whole restore of one very large account (clusters in parallel within it)",
            List.of("restore", "--accounts", "1", "--items", quick ? "100000" : "1000000")),
        new Scenario(
            "file-per-blob",
            "the 20-account restore into a file-per-blob volume (one fsync per blob)",
            List.of(
                "restore",
                "--accounts",
                "20",
                "--items",
                quick ? "30000" : "500000",
                "--volume-kind",
                "local")),
        new Scenario(
            "s3-latency",
            "a restore from an S3 backup with 15 ms per request vs raw GETs through the same proxy",
            List.of("s3-restore", "--items", "30000")),
        new Scenario(
            "peer",
            "the Enron subset: Dovecot's doveadm import vs our restore of the same Maildir tree",
            List.of("peer")),
        new Scenario(
            "imap",
            "the Enron subset into a live Dovecot over IMAP: a cold CLI vs mbsync and doveadm"
                + " import; a large folder's memory",
            List.of("imap", "--large", quick ? "20000" : "75000")),
        new Scenario(
            "dav",
            "contacts and events into a live Radicale through the DAV target vs vdirsyncer"
                + " uploading the same vdir",
            List.of(
                "dav", "--contacts", quick ? "200" : "1000", "--events", quick ? "200" : "1000")),
        new Scenario(
            "memory",
            "the RSS of a cold restore and verify of one large folder and of one of 500, next to"
                + " a 400 MiB budget",
            List.of("memory", "--messages", quick ? "20000" : "75000")));
  }

  @Override
  public Integer call() throws Exception {
    Mode m = Mode.valueOf(mode.toUpperCase(Locale.ROOT));
    Path dir = Files.createTempDirectory("mailrestore-suite");
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("suite", m.name().toLowerCase(Locale.ROOT));
    out.put("started", Instant.now().toString());
    out.put("cores", Runtime.getRuntime().availableProcessors());
    out.put("java", Runtime.version().toString());
    out.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    List<Map<String, Object>> results = new ArrayList<>();
    int failures = 0;
    long suiteStart = System.nanoTime();
    for (Scenario s : scenarios(m)) {
      if (skip.contains(s.name())) {
        continue;
      }
      Path file = dir.resolve(s.name() + ".json");
      List<String> args = new ArrayList<>(s.args());
      args.addAll(List.of("--json", file.toString()));
      System.out.printf(
          Locale.ROOT,
          "%n== %s: %s%n   ./benchmark %s%n",
          s.name(),
          s.shows(),
          String.join(" ", s.args()));
      long start = System.nanoTime();
      int exit = new CommandLine(new Benchmarks()).execute(args.toArray(String[]::new));
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("scenario", s.name());
      r.put("shows", s.shows());
      r.put("command", "./benchmark " + String.join(" ", s.args()));
      r.put("exitCode", exit);
      r.put("seconds", (System.nanoTime() - start) / 1e9);
      if (exit == 0 && Files.exists(file)) {
        r.put("result", Json.MAPPER.readTree(file.toFile()));
      } else {
        failures++;
      }
      results.add(r);
    }
    out.put("seconds", (System.nanoTime() - suiteStart) / 1e9);
    out.put("scenarios", results);
    Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(out));
    summary(System.out, results, Duration.ofNanos(System.nanoTime() - suiteStart));
    System.out.printf(Locale.ROOT, "  all results: %s%n", json.toAbsolutePath());
    return failures == 0 ? 0 : 1;
  }

  /**
   * Each measurement made against a limit (or a peer), with the fraction reached and what the
   * restore JVM measured of itself, where the scenario runs one.
   */
  static void summary(PrintStream out, List<Map<String, Object>> results, Duration took) {
    out.printf(Locale.ROOT, "%nsummary (%d s)%n", took.toSeconds());
    out.printf(
        Locale.ROOT,
        "  %-20s %-38s %10s %8s %8s %9s %7s %9s %7s%n",
        "scenario",
        "measurement",
        "objects/s",
        "MiB/s",
        "of limit",
        "peak heap",
        "GC ms",
        "CPU s/10k",
        "dedup");
    for (Map<String, Object> r : results) {
      if (!(r.get("result") instanceof JsonNode result)) {
        out.printf(Locale.ROOT, "  %-20s failed (exit %s)%n", r.get("scenario"), r.get("exitCode"));
        continue;
      }
      for (JsonNode row : result.path("results")) {
        if (!row.has("fractionOfLimit")) {
          continue; // a limit itself: its fraction is in the rows measured against it
        }
        out.printf(
            Locale.ROOT,
            "  %-20s %-38s %,10.0f %8.1f %8s %9s %7s %9s %7s%n",
            r.get("scenario"),
            row.path("group").asString() + ": " + row.path("name").asString(),
            row.path("objectsPerSecond").asDouble(),
            row.path("mibPerSecond").asDouble(),
            String.format(Locale.ROOT, "%.0f %%", 100 * row.path("fractionOfLimit").asDouble()),
            figure(result, "peak heap MiB", "%.0f MiB"),
            figure(result, "GC ms", "%.0f"),
            figure(result, "CPU seconds per 10k items", "%.2f"),
            figure(result, "dedup ratio", "%.2f"));
      }
    }
  }

  private static String figure(JsonNode result, String key, String format) {
    JsonNode v = result.path(key);
    return v.isNumber() ? String.format(Locale.ROOT, format, v.asDouble()) : "";
  }
}
