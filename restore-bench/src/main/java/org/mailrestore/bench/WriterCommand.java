package org.mailrestore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./benchmark writer}: the mailstore's writer next to raw batched inserts. */
@Command(
    name = "writer",
    mixinStandardHelpOptions = true,
    description =
        "The mailstore writer (clusters with checkpoint, counters and lease check) against raw"
            + " batched JDBC inserts of the same rows into the same tables, in one run.")
final class WriterCommand implements Callable<Integer> {

  @Option(
      names = "--items",
      defaultValue = "1000000",
      description = "Items (default: ${DEFAULT-VALUE})")
  int items;

  @Option(
      names = "--accounts",
      defaultValue = "10",
      description = "Accounts (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--cluster-size",
      defaultValue = "1000",
      description = "Items per transaction (default: ${DEFAULT-VALUE})")
  int clusterSize;

  @Option(
      names = "--naive-sample",
      defaultValue = "10000",
      description = "Items written one commit each, for comparison (default: ${DEFAULT-VALUE})")
  int naiveSample;

  @Mixin ServerOptions mariadb;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Path work = Files.createTempDirectory("mailrestore-bench");
    try {
      WriterBench.Report r =
          new WriterBench(
                  new WriterBench.Params(
                      mariadb.url,
                      mariadb.user,
                      mariadb.password(),
                      items,
                      accounts,
                      clusterSize,
                      naiveSample,
                      work))
              .run();
      Report report = new Report("writer: the mailstore writer next to raw batched inserts");
      report.context("server", r.server());
      report.context("items", r.items());
      report.context("rows (items, tag links, id mappings)", r.rows());
      report.context("cluster size", clusterSize);
      Report.Row raw = report.add("rows", r.raw().name(), r.rows(), 0, r.raw().seconds());
      report.add("rows", r.writer().name(), r.rows(), 0, r.writer().seconds(), raw);
      report.add("rows", r.naive().name(), r.naive().rows(), 0, r.naive().seconds(), raw);
      report.print(System.out);
      System.out.printf(
          java.util.Locale.ROOT,
          "  items/s: raw %,.0f, writer %,.0f, one commit per item %,.0f (writer %.0fx faster)%n",
          r.raw().itemsPerSecond(),
          r.writer().itemsPerSecond(),
          r.naive().itemsPerSecond(),
          r.writer().itemsPerSecond() / r.naive().itemsPerSecond());
      if (json != null) {
        report.writeJson(json);
      }
      return 0;
    } finally {
      Files.walk(work)
          .sorted(java.util.Comparator.reverseOrder())
          .forEach(p -> p.toFile().delete());
    }
  }
}
