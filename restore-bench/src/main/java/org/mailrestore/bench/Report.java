package org.mailrestore.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.mailrestore.mail.Json;

/** Rows of measurements: printed as a table, written as JSON. */
final class Report {

  /** One measurement: what, how many, how long; and what it is compared with. */
  record Row(
      String group,
      String name,
      long objects,
      long bytes,
      double seconds,
      String comparedWith,
      Double fraction) {
    double objectsPerSecond() {
      return objects / seconds;
    }

    double megabytesPerSecond() {
      return bytes / seconds / (1 << 20);
    }
  }

  private final String title;
  private final Map<String, Object> context = new LinkedHashMap<>();
  private final List<Row> rows = new ArrayList<>();

  Report(String title) {
    this.title = title;
    context.put("cores", Runtime.getRuntime().availableProcessors());
    context.put("java", Runtime.version().toString());
    context.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
  }

  void context(String key, Object value) {
    context.put(key, value);
  }

  /** What the restore JVM measured of itself: heap, GC, CPU per 10,000 items, dedup ratio. */
  void restoreFigures(RestoreRun.Result r) {
    context(
        "phases seconds",
        String.format(
            Locale.ROOT,
            "provisioning %.2f, data %.2f, shares %.2f",
            r.provisioningMillis() / 1000.0,
            r.dataMillis() / 1000.0,
            r.sharesMillis() / 1000.0));
    context("peak heap MiB", r.peakHeapBytes() >> 20);
    context("GC ms", r.gcMillis());
    context("GC collections", r.gcCount());
    context("restore CPU seconds", r.cpuNanos() / 1e9);
    long items = Math.max(1, r.itemsRestored());
    context("CPU seconds per 10k items", r.cpuNanos() / 1e9 / items * 10_000);
    if (r.volumeBytes() > 0) {
      // Bytes of the restored items over the bytes the volume holds: dedup (and packing) gains.
      context("dedup ratio", (double) r.bytesRestored() / r.volumeBytes());
    }
    context("dedup hits", r.dedupHits());
    // The JDK's SHA-256 under the client compiler is ten times slower: a figure to read with it.
    context("SHA-256 of the restore JVM", r.sha256Provider());
  }

  Row add(String group, String name, long objects, long bytes, double seconds) {
    Row row = new Row(group, name, objects, bytes, seconds, null, null);
    rows.add(row);
    return row;
  }

  /** A measurement next to its limit: the fraction of the limit it reaches. */
  Row add(String group, String name, long objects, long bytes, double seconds, Row limit) {
    Row row =
        new Row(
            group,
            name,
            objects,
            bytes,
            seconds,
            limit.name(),
            limit.bytes() > 0 && limit.objects() < 10
                ? (bytes / seconds) / (limit.bytes() / limit.seconds())
                : (objects / seconds) / limit.objectsPerSecond());
    rows.add(row);
    return row;
  }

  /**
   * A measurement of memory next to its budget: its fraction is the budget used, so under 100 % is
   * within it (the reverse of a rate's).
   */
  Row addAgainstBudget(
      String group, String name, long objects, double seconds, long usedMib, long budgetMib) {
    Row row =
        new Row(
            group,
            name,
            objects,
            0,
            seconds,
            budgetMib + " MiB RSS budget",
            (double) usedMib / budgetMib);
    rows.add(row);
    return row;
  }

  void print(PrintStream out) {
    out.printf(Locale.ROOT, "%s%n", title);
    context.forEach((k, v) -> out.printf(Locale.ROOT, "  %s: %s%n", k, v));
    out.printf(
        Locale.ROOT,
        "  %-24s %-34s %10s %10s %9s %8s  %s%n",
        "",
        "",
        "objects/s",
        "MiB/s",
        "seconds",
        "of limit",
        "");
    String group = null;
    for (Row r : rows) {
      out.printf(
          Locale.ROOT,
          "  %-24s %-34s %,10.0f %10.1f %9.2f %8s  %s%n",
          r.group().equals(group) ? "" : r.group(),
          r.name(),
          r.objectsPerSecond(),
          r.megabytesPerSecond(),
          r.seconds(),
          r.fraction() == null ? "" : String.format(Locale.ROOT, "%.0f %%", 100 * r.fraction()),
          r.comparedWith() == null ? "" : "(limit: " + r.comparedWith() + ")");
      group = r.group();
    }
  }

  void writeJson(Path file) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("benchmark", title);
    out.putAll(context);
    List<Map<String, Object>> list = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("group", r.group());
      m.put("name", r.name());
      m.put("objects", r.objects());
      m.put("bytes", r.bytes());
      m.put("seconds", r.seconds());
      m.put("objectsPerSecond", r.objectsPerSecond());
      m.put("mibPerSecond", r.megabytesPerSecond());
      if (r.fraction() != null) {
        m.put("fractionOfLimit", r.fraction());
        m.put("limit", r.comparedWith());
      }
      list.add(m);
    }
    out.put("results", list);
    Files.writeString(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(out));
  }
}
