package org.mailrestore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.Pace;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Restores;
import org.mailrestore.restore.SourceInspection;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.testkit.FaultProxy;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.zimbra.ZimbraTgzKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./benchmark archive}: Zimbra archives restored from disk and from S3. */
@Command(
    name = "archive",
    mixinStandardHelpOptions = true,
    description =
        "Zimbra account archives (.tgz) next to the same mail as a backup in our format: a"
            + " generated backup is restored once and exported as one archive per account, then"
            + " both are restored, from disk and from S3 behind the fault proxy (15 ms per"
            + " request), each in a JVM of its own, in one run.")
final class ArchiveCommand implements Callable<Integer> {

  @Option(
      names = "--items",
      defaultValue = "30000",
      description = "Live items, about (default: ${DEFAULT-VALUE})")
  int items;

  @Option(
      names = "--accounts",
      defaultValue = "10",
      description = "Accounts, one archive each (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--latency",
      defaultValue = "15",
      description = "Milliseconds added to every S3 request (default: ${DEFAULT-VALUE})")
  int latencyMillis;

  @Option(
      names = "--heap",
      defaultValue = "512m",
      description = "-Xmx of the restore's JVM (default: ${DEFAULT-VALUE})")
  String heap;

  @Option(
      names = "--repeat",
      defaultValue = "3",
      description =
          "Local pairs run, alternating; the median of each is kept (default: ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = "--no-s3", description = "Only the local pair")
  boolean noS3;

  @Mixin ServerOptions mariadb;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Concurrency machine = Concurrency.forMachine();
    String password = mariadb.password();
    Path work = Files.createTempDirectory("mailrestore-archive-bench");
    try {
      Path backup = work.resolve("backup");
      BackupGenerator.generate(
          GeneratorSpec.defaults()
              .withAccounts(accounts)
              .withItemsPerAccount((int) Math.ceil(items / (double) accounts / 0.95))
              .withShares(false)
              .withThreads(Runtime.getRuntime().availableProcessors()),
          backup);
      Path archives = work.resolve("archives");
      long archiveBytes = exportArchives(backup, archives, work, password);

      Report report =
          new Report("archive: Zimbra archives next to the same mail in a backup v1, one run");
      report.context("accounts", accounts);
      report.context("archive bytes (gzip)", archiveBytes);
      report.context("restore JVM", "-Xmx" + heap + ", after one unmeasured warm-up restore");
      report.context("volume", "packed-local; S3 objects (one per blob) in the third pair");
      Map<String, String> pairs = new java.util.LinkedHashMap<>();
      // Local runs last seconds, so one pair is noisy: alternate the two, keep each one's median.
      List<RestoreRun.Result> backupRuns = new ArrayList<>();
      List<RestoreRun.Result> tgzRuns = new ArrayList<>();
      List<String> runRatios = new ArrayList<>();
      for (int run = 0; run < repeat; run++) {
        backupRuns.add(
            restore(
                RestoreRun.backup(backup.toString()), null, work, "local-backup-" + run, machine));
        tgzRuns.add(
            restore(
                RestoreRun.source(ZimbraTgzKind.NAME, archives.toString()),
                null,
                work,
                "local-tgz-" + run,
                machine));
        runRatios.add(
            String.format(
                Locale.ROOT,
                "%.0f %%",
                100.0 * backupRuns.getLast().dataMillis() / tgzRuns.getLast().dataMillis()));
      }
      report.context("local runs", repeat + " alternating pairs, the median of each kind");
      report.context("local ratio of each pair", String.join(", ", runRatios));
      RestoreRun.Result backupLocal = median(backupRuns);
      RestoreRun.Result tgzLocal = median(tgzRuns);
      Report.Row limit = row(report, "local", "backup v1 directory", backupLocal, null);
      Report.Row tgz = row(report, "local", "Zimbra archives (.tgz)", tgzLocal, limit);
      pairs.put("local", ratio(tgz, limit));
      if (!noS3) {
        S3Server server = TestS3.server();
        String bucket = TestS3.createBucket();
        TestS3.upload(backup, bucket, "backup");
        TestS3.upload(archives, bucket, "archives");
        FaultProxy.Faults latency = FaultProxy.Faults.latencyOnly(Duration.ofMillis(latencyMillis));
        try (FaultProxy proxy = FaultProxy.start(server.endpoint(), latency)) {
          RestoreRun.S3Endpoint endpoint =
              new RestoreRun.S3Endpoint(
                  proxy.endpoint().toString(),
                  server.region(),
                  server.accessKey(),
                  server.secretKey());
          RestoreRun.Result backupS3 =
              restore(
                  RestoreRun.backup("s3://" + bucket + "/backup"),
                  endpoint,
                  work,
                  "s3-backup",
                  machine);
          RestoreRun.Result tgzS3 =
              restore(
                  RestoreRun.source(ZimbraTgzKind.NAME, "s3://" + bucket + "/archives/"),
                  endpoint,
                  work,
                  "s3-tgz",
                  machine);
          String group = "S3 +" + latencyMillis + " ms";
          Report.Row s3Limit = row(report, group, "backup v1 in a bucket", backupS3, null);
          Report.Row s3Tgz = row(report, group, "Zimbra archives in a bucket", tgzS3, s3Limit);
          pairs.put(group, ratio(s3Tgz, s3Limit));
          // Into a volume of one object per blob, from disk: what passes in an archive is stored
          // as it passes, where a backup's blobs are copied by a cluster's copiers.
          String intoS3 = "into S3 objects +" + latencyMillis + " ms";
          RestoreRun.Result backupIntoS3 =
              restore(
                  RestoreRun.backup(backup.toString()),
                  endpoint,
                  work,
                  "s3vol-backup",
                  machine,
                  VolumeSpec.Kind.S3,
                  "s3://" + bucket + "/volume-backup");
          RestoreRun.Result tgzIntoS3 =
              restore(
                  RestoreRun.source(ZimbraTgzKind.NAME, archives.toString()),
                  endpoint,
                  work,
                  "s3vol-tgz",
                  machine,
                  VolumeSpec.Kind.S3,
                  "s3://" + bucket + "/volume-tgz");
          Report.Row intoS3Limit = row(report, intoS3, "backup v1 directory", backupIntoS3, null);
          Report.Row intoS3Tgz =
              row(report, intoS3, "Zimbra archives (.tgz)", tgzIntoS3, intoS3Limit);
          pairs.put(intoS3, ratio(intoS3Tgz, intoS3Limit));
        }
      }
      report.restoreFigures(tgzLocal);
      report.print(System.out);
      pairs.forEach((where, ratio) ->
          System.out.printf(
              Locale.ROOT, "  %s: Zimbra archives at %s of the backup v1 rate%n", where, ratio));
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

  private static RestoreRun.Result median(List<RestoreRun.Result> runs) {
    List<RestoreRun.Result> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparingLong(RestoreRun.Result::dataMillis));
    return sorted.get(sorted.size() / 2);
  }

  private static String ratio(Report.Row row, Report.Row limit) {
    return String.format(
        Locale.ROOT, "%.0f %%", 100 * row.objectsPerSecond() / limit.objectsPerSecond());
  }

  private static Report.Row row(
      Report report, String group, String name, RestoreRun.Result r, Report.Row limit) {
    if (!r.state().equals("COMPLETED")) {
      throw new IllegalStateException(name + ": the restore ended " + r.state());
    }
    double seconds = r.dataMillis() / 1000.0;
    return limit == null
        ? report.add(group, name, r.itemsRestored(), r.bytesRestored(), seconds)
        : report.add(group, name, r.itemsRestored(), r.bytesRestored(), seconds, limit);
  }

  private RestoreRun.Result restore(
      SourceSpec source, RestoreRun.S3Endpoint s3, Path work, String purpose, Concurrency machine)
      throws Exception {
    return restore(
        source,
        s3,
        work,
        purpose,
        machine,
        VolumeSpec.Kind.PACKED_LOCAL,
        work.resolve("volume-" + purpose).toString());
  }

  private RestoreRun.Result restore(
      SourceSpec source,
      RestoreRun.S3Endpoint s3,
      Path work,
      String purpose,
      Concurrency machine,
      VolumeSpec.Kind volumeKind,
      String volume)
      throws Exception {
    String password = mariadb.password();
    try (BenchDatabase warmup =
            new BenchDatabase(
                mariadb.url, mariadb.user, password, purpose.replace('-', '_') + "w", 1);
        BenchDatabase db =
            new BenchDatabase(mariadb.url, mariadb.user, password, purpose.replace('-', '_'), 1)) {
      RestoreRun.Params params =
          new RestoreRun.Params(
              db.jdbcUrl(),
              mariadb.user,
              password,
              source,
              volume,
              volumeKind,
              1000,
              machine.accounts(),
              machine.clustersPerAccount(),
              machine.blobTransfers(),
              s3,
              warmup.jdbcUrl());
      return RestoreRun.inChild(params, heap, work);
    }
  }

  /** Restores the backup once (unmeasured) and exports every account as a Zimbra archive. */
  private long exportArchives(Path backup, Path archives, Path work, String password)
      throws Exception {
    try (BenchDatabase db = new BenchDatabase(mariadb.url, mariadb.user, password, "tgzsetup", 4);
        Restores restores =
            Restores.builder()
                .database(db.jdbcUrl(), mariadb.user, password)
                .defaultTarget(
                    MailstoreKind.of(
                        new VolumeSpec(
                            "setup",
                            VolumeSpec.Kind.PACKED_LOCAL,
                            work.resolve("volume-setup").toString(),
                            BlobCompression.NONE,
                            0,
                            0,
                            null)))
                .build()) {
      String id =
          restores.submit(RestoreRequest.local(backup.toString()), null, Pace.UNLIMITED).id();
      OperationView ended = restores.await(id, Duration.ofDays(1));
      if (ended.state() != OperationState.COMPLETED) {
        throw new IllegalStateException("the setup restore ended " + ended.state());
      }
      List<String> names =
          restores
              .inspect(SourceSpec.of(BackupSourceKind.NAME, backup.toString()))
              .accounts()
              .stream()
              .filter(a -> !a.system())
              .map(SourceInspection.AccountInspection::name)
              .toList();
      restores.export(
          ExportFormat.installed().require(ZimbraTgzKind.NAME),
          null,
          names,
          archives,
          new ReadCounter());
    }
    try (var files = Files.list(archives)) {
      return files.mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
