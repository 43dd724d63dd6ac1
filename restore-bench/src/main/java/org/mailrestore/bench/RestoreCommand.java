package org.mailrestore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./benchmark restore}: a whole restore next to the raw insert and copy. */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description =
        "A whole restore of a generated backup (realistic sizes) local to local, phase 2 measured"
            + " in a JVM of its own with a fixed heap, next to raw batched inserts of the same rows"
            + " and a raw copy of the same blobs, in one run.")
final class RestoreCommand implements Callable<Integer> {

  @Option(
      names = "--items",
      defaultValue = "500000",
      description = "Live items to restore, about (default: ${DEFAULT-VALUE})")
  int items;

  @Option(
      names = "--accounts",
      defaultValue = "20",
      description = "Accounts (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--cluster-size",
      defaultValue = "1000",
      description = "Items per transaction (default: ${DEFAULT-VALUE})")
  int clusterSize;

  @Option(
      names = "--volume-kind",
      defaultValue = "packed-local",
      description = "local (file per blob) or packed-local (default: ${DEFAULT-VALUE})")
  String volumeKind;

  @Option(
      names = "--heap",
      defaultValue = "512m",
      description = "-Xmx of the restore's JVM (default: ${DEFAULT-VALUE})")
  String heap;

  @Option(
      names = "--concurrent-accounts",
      description = "Accounts restored at once (default: two per core)")
  Integer concurrentAccounts;

  @Option(
      names = "--clusters-per-account",
      defaultValue = "2",
      description = "Clusters of one account in flight (default: ${DEFAULT-VALUE})")
  int clustersPerAccount;

  @Option(
      names = "--raw-threads",
      description = "Connections and threads of the raw limits (default: two per core)")
  Integer rawThreads;

  @Option(
      names = "--backup",
      description =
          "Use (or generate once into) this directory instead of a temporary backup, to repeat"
              + " runs without generating again")
  Path backup;

  @Mixin ServerOptions mariadb;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    VolumeSpec.Kind kind = VolumeSpec.Kind.parse(volumeKind);
    if (kind != VolumeSpec.Kind.LOCAL && kind != VolumeSpec.Kind.PACKED_LOCAL) {
      throw new IllegalArgumentException("this benchmark is local to local: local or packed-local");
    }
    Concurrency machine = Concurrency.forMachine();
    int atOnce = concurrentAccounts != null ? concurrentAccounts : machine.accounts();
    int raw = rawThreads != null ? rawThreads : machine.accounts();
    Path work = Files.createTempDirectory("mailrestore-bench");
    try {
      RestoreBench.Outcome o =
          new RestoreBench(
                  new RestoreBench.Params(
                      mariadb.url,
                      mariadb.user,
                      mariadb.password(),
                      accounts,
                      items,
                      clusterSize,
                      kind,
                      heap,
                      atOnce,
                      clustersPerAccount,
                      machine.blobTransfers(),
                      raw,
                      backup == null ? null : backup.toAbsolutePath(),
                      work))
              .run();
      RestoreRun.Result r = o.restore();
      // The restore also counts folders and tags, which the raw rows leave out: a few per account.
      if (!r.state().equals("COMPLETED") || r.itemsRestored() < o.liveItems()) {
        System.err.printf(
            Locale.ROOT,
            "the restore ended %s with %,d items restored for %,d live content items%n",
            r.state(),
            r.itemsRestored(),
            o.liveItems());
        return 1;
      }
      Report report = new Report("restore: phase 2 of a whole restore next to the raw limits");
      report.context("server", o.server());
      report.context("accounts", accounts);
      report.context("live content items", o.liveItems());
      report.context("rows (items, tag links, id mappings, volume blobs)", o.rows());
      report.context("distinct blobs", o.distinctBlobs());
      report.context("blob bytes", o.blobBytes());
      report.context("volume", kind.wireName());
      report.context("cluster size", clusterSize);
      report.context(
          "restore bounds",
          atOnce
              + " accounts, "
              + clustersPerAccount
              + " clusters each, "
              + machine.blobTransfers()
              + " blob copies");
      report.context("restore JVM", "-Xmx" + heap);
      if (!o.generation().isZero()) {
        report.context("generation seconds", o.generation().toMillis() / 1000.0);
      }
      Report.Row insert =
          report.add(
              "phase 2", o.rawInsert().name(), o.rawInsert().items(), 0, o.rawInsert().seconds());
      Report.Row copy =
          report.add(
              "phase 2",
              o.rawCopy().name(),
              o.rawCopy().items(),
              o.rawCopy().bytes(),
              o.rawCopy().seconds());
      Report.Row slower = insert.seconds() >= copy.seconds() ? insert : copy;
      // Both jobs one after the other: what the machine needs for the restore's rows and blobs.
      Report.Row combined =
          report.add(
              "phase 2",
              "raw insert + raw copy, one after the other",
              o.rawInsert().items(),
              o.rawCopy().bytes(),
              insert.seconds() + copy.seconds());
      report.add(
          "phase 2",
          "mailrestore restore",
          r.itemsRestored(),
          r.bytesRestored(),
          r.dataMillis() / 1000.0,
          slower);
      report.add(
          "phase 2",
          "mailrestore restore (vs combined)",
          r.itemsRestored(),
          r.bytesRestored(),
          r.dataMillis() / 1000.0,
          combined);
      report.restoreFigures(r);
      report.context("restore wall seconds", r.wallNanos() / 1e9);
      // The server's side, in counters that do not drift with the machine's load.
      report.context("database, raw insert", o.rawInsertWork().describe());
      report.context(
          "database, restore process (schema and provisioning included)",
          o.restoreWork().describe());
      ServerWork data = r.dataServerWork();
      if (data != null) {
        // The same rows as the raw insert: issue 43's goal 1 compares the database's CPU for them.
        report.context("database, restore from phase 2 to the end", data.describe());
        if (data.cpuSeconds() > 0 && o.rawInsertWork().cpuSeconds() > 0) {
          report.context(
              "database CPU, restore from phase 2 / raw insert",
              String.format(
                  Locale.ROOT, "%.2fx", data.cpuSeconds() / o.rawInsertWork().cpuSeconds()));
        }
      }
      RestoreBench.RawCpu floor = o.rawCpu();
      double per10k = 10_000.0 / Math.max(1, r.itemsRestored()) / 1e9;
      report.context(
          "raw work's JVM CPU seconds per 10k items",
          String.format(
              Locale.ROOT,
              "reading the items %.2f + inserting the rows %.2f + copying the blobs %.2f = %.2f;"
                  + " the restore's %.2f is %.1fx that",
              floor.decodeNanos() * per10k,
              floor.insertNanos() * per10k,
              floor.copyNanos() * per10k,
              floor.total() * per10k,
              r.cpuNanos() * per10k,
              (double) r.cpuNanos() / Math.max(1, floor.total())));
      report.context(
          "restore CPU use",
          String.format(
              Locale.ROOT,
              "%.0f %% of %d cores",
              100.0 * r.cpuNanos() / r.wallNanos() / Runtime.getRuntime().availableProcessors(),
              Runtime.getRuntime().availableProcessors()));
      if (o.rawInsertWork().cpuSeconds() > 0) {
        // Phase 2 also reads the backup, which the combined limit leaves out (its rows are built
        // before its clock starts): the floor of that work on these cores bounds the ratio.
        int cores = Runtime.getRuntime().availableProcessors();
        double floorCpu = floor.total() / 1e9 + o.rawInsertWork().cpuSeconds();
        double floorSeconds = floorCpu / cores;
        report.context(
            "phase 2's floor on these cores",
            String.format(
                Locale.ROOT,
                "reading, inserting and copying at the raw work's CPU (%.2f CPU-s) and the raw"
                    + " insert's database CPU (%.2f) need at least %.2f s on %d cores: at most"
                    + " %.0f %% of the combined limit",
                floor.total() / 1e9,
                o.rawInsertWork().cpuSeconds(),
                floorSeconds,
                cores,
                100 * combined.seconds() / floorSeconds));
      }
      report.print(System.out);
      System.out.printf(
          Locale.ROOT,
          "  phase 2: %,.0f items/s, %.1f MiB/s; %.0f %% of the slower limit (%s); %.0f %% of the"
              + " combined limit (%.2f s + %.2f s)%n",
          r.itemsRestored() / (r.dataMillis() / 1000.0),
          r.bytesRestored() / (r.dataMillis() / 1000.0) / (1 << 20),
          100 * slower.seconds() / (r.dataMillis() / 1000.0),
          slower.name(),
          100 * combined.seconds() / (r.dataMillis() / 1000.0),
          insert.seconds(),
          copy.seconds());
      if (json != null) {
        report.writeJson(json);
      }
      return 0;
    } finally {
      try (var paths = Files.walk(work)) {
        paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
