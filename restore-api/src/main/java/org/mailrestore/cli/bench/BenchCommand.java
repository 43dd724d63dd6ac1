package org.mailrestore.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.mailrestore.backup.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mailrestore bench ...}: measurements next to their limits, on this machine. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks: each measures mailrestore next to the limit of the same resource.",
    subcommands = {BenchCommand.Writer.class})
public final class BenchCommand {

  /** Options shared by benchmarks that need a MariaDB server. */
  static final class Server {
    @Option(
        names = "--jdbc-url",
        defaultValue = "jdbc:mariadb://127.0.0.1:3306/",
        description =
            "The MariaDB server (benchmarks create and drop databases of their own; default:"
                + " ${DEFAULT-VALUE})")
    String url;

    @Option(names = "--db-user", defaultValue = "root", description = "(default: ${DEFAULT-VALUE})")
    String user;

    String password() {
      return System.getenv().getOrDefault("MAILRESTORE_DB_PASSWORD", "");
    }
  }

  @Command(
      name = "writer",
      mixinStandardHelpOptions = true,
      description =
          "The mailstore writer (clusters with checkpoint, counters and lease check) against raw"
              + " batched JDBC inserts of the same rows into the same tables, in one run.")
  static final class Writer implements Callable<Integer> {
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

    @Option(names = "--json", description = "Also write the results to this file")
    Path json;

    @picocli.CommandLine.Mixin Server server = new Server();

    @Override
    public Integer call() throws Exception {
      Path work = Files.createTempDirectory("mailrestore-bench");
      try {
        WriterBench.Report r =
            new WriterBench(
                    new WriterBench.Params(
                        server.url,
                        server.user,
                        server.password(),
                        items,
                        accounts,
                        clusterSize,
                        naiveSample,
                        work))
                .run();
        System.out.printf(
            Locale.ROOT,
            "writer benchmark on %s (%d cores, Java %s)%n",
            r.server(),
            Runtime.getRuntime().availableProcessors(),
            Runtime.version());
        System.out.printf(
            Locale.ROOT,
            "  %,d items, %,d rows (items, tag links, id mappings), clusters of %,d;"
                + " metadata generated in %.1f s%n",
            r.items(),
            r.rows(),
            clusterSize,
            r.generation().toMillis() / 1000.0);
        System.out.printf(
            Locale.ROOT, "  %-32s %12s %12s %10s%n", "", "rows/s", "items/s", "seconds");
        for (WriterBench.Measure m : new WriterBench.Measure[] {r.raw(), r.writer(), r.naive()}) {
          System.out.printf(
              Locale.ROOT,
              "  %-32s %,12.0f %,12.0f %10.2f%n",
              m.name(),
              m.rowsPerSecond(),
              m.itemsPerSecond(),
              m.seconds());
        }
        System.out.printf(
            Locale.ROOT,
            "  writer / raw limit: %.1f %%; writer / one-commit-per-item: %.0fx%n",
            100 * r.writerFraction(),
            r.writer().itemsPerSecond() / r.naive().itemsPerSecond());
        if (json != null) {
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("benchmark", "writer");
          out.put("server", r.server());
          out.put("cores", Runtime.getRuntime().availableProcessors());
          out.put("java", Runtime.version().toString());
          out.put("items", r.items());
          out.put("rows", r.rows());
          out.put("clusterSize", clusterSize);
          for (WriterBench.Measure m : new WriterBench.Measure[] {r.raw(), r.writer(), r.naive()}) {
            out.put(
                m.name(),
                Map.of(
                    "rowsPerSecond",
                    m.rowsPerSecond(),
                    "itemsPerSecond",
                    m.itemsPerSecond(),
                    "seconds",
                    m.seconds()));
          }
          out.put("writerFractionOfRaw", r.writerFraction());
          Files.writeString(
              json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        }
        return 0;
      } finally {
        deleteTree(work);
      }
    }
  }

  static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
