package org.mailrestore.bench;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.s3.S3Clients;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.testkit.FaultProxy;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;

/** {@code ./benchmark s3-restore}: a restore from S3 next to raw GETs of its blobs. */
@Command(
    name = "s3-restore",
    mixinStandardHelpOptions = true,
    description =
        "A restore from a backup in S3 behind the fault proxy (latency only, 15 ms per request by"
            + " default), next to raw SDK GETs of the same blobs through the same proxy with as"
            + " many requests in flight as the restore's blob copies, in one run.")
final class S3RestoreCommand implements Callable<Integer> {

  @Option(
      names = "--items",
      defaultValue = "30000",
      description = "Live items, about (default: ${DEFAULT-VALUE})")
  int items;

  @Option(
      names = "--accounts",
      defaultValue = "10",
      description = "Accounts (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--latency",
      defaultValue = "15",
      description = "Milliseconds added to every S3 request (default: ${DEFAULT-VALUE})")
  int latencyMillis;

  @Option(
      names = "--blob-transfers",
      description = "Blob copies in flight, and raw GETs in flight (default: the restore's, 32)")
  Integer blobTransfers;

  @Option(
      names = "--heap",
      defaultValue = "512m",
      description = "-Xmx of the restore's JVM (default: ${DEFAULT-VALUE})")
  String heap;

  @Mixin ServerOptions mariadb;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Concurrency machine = Concurrency.forMachine();
    int inFlight = blobTransfers != null ? blobTransfers : machine.blobTransfers();
    String password = mariadb.password();
    Path work = Files.createTempDirectory("mailrestore-s3-bench");
    try {
      Path backup = work.resolve("backup");
      long started = System.nanoTime();
      BackupGenerator.generate(
          GeneratorSpec.defaults()
              .withAccounts(accounts)
              .withItemsPerAccount((int) Math.ceil(items / (double) accounts / 0.95))
              .withThreads(Runtime.getRuntime().availableProcessors()),
          backup);
      double generated = BlobBench.seconds(started);
      S3Server server = TestS3.server();
      String bucket = TestS3.createBucket();
      TestS3.upload(backup, bucket, "backup");
      List<String> blobKeys;
      try (Stream<Path> files = Files.walk(backup.resolve(BackupLayout.BLOBS))) {
        blobKeys =
            files
                .filter(Files::isRegularFile)
                .map(f -> "backup/" + backup.relativize(f).toString().replace('\\', '/'))
                .toList();
      }
      long blobBytes;
      try (Stream<Path> files = Files.walk(backup.resolve(BackupLayout.BLOBS))) {
        blobBytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      }

      FaultProxy.Faults latency = FaultProxy.Faults.latencyOnly(Duration.ofMillis(latencyMillis));
      Report report = new Report("s3-restore: a restore from S3 next to raw GETs of its blobs");
      report.context("S3 server", server.toString());
      report.context("added latency per S3 request", latencyMillis + " ms (fault proxy)");
      report.context("accounts", accounts);
      report.context("distinct blobs in the backup", blobKeys.size());
      report.context("blob bytes", blobBytes);
      report.context("in flight (raw GETs, restore blob copies)", inFlight);
      report.context("restore JVM", "-Xmx" + heap);
      report.context("volume", "packed-local");
      report.context("generation seconds", generated);
      Report.Row rawGet;
      try (FaultProxy proxy = FaultProxy.start(server.endpoint(), latency);
          S3Client client =
              S3Clients.create(
                  S3Settings.of(
                          proxy.endpoint(), server.region(), server.accessKey(), server.secretKey())
                      .withMaxConnections(inFlight + 8),
                  null)) {
        double seconds =
            BlobBench.parallel(
                blobKeys.size(),
                inFlight,
                i -> {
                  try (InputStream in =
                      client.getObject(b -> b.bucket(bucket).key(blobKeys.get(i)))) {
                    in.transferTo(OutputStream.nullOutputStream());
                  }
                },
                () -> {});
        rawGet =
            report.add(
                "S3 source",
                "raw SDK GET of the blobs, " + inFlight + " in flight",
                blobKeys.size(),
                blobBytes,
                seconds);
      }

      RestoreRun.Result r;
      try (FaultProxy proxy = FaultProxy.start(server.endpoint(), latency);
          BenchDatabase warmup =
              new BenchDatabase(mariadb.url, mariadb.user, password, "s3warm", 1);
          BenchDatabase db =
              new BenchDatabase(mariadb.url, mariadb.user, password, "s3restore", 1)) {
        RestoreRun.Params params =
            new RestoreRun.Params(
                db.jdbcUrl(),
                mariadb.user,
                password,
                RestoreRun.backup("s3://" + bucket + "/backup"),
                work.resolve("volume").toString(),
                VolumeSpec.Kind.PACKED_LOCAL,
                1000,
                machine.accounts(),
                2,
                inFlight,
                new RestoreRun.S3Endpoint(
                    proxy.endpoint().toString(),
                    server.region(),
                    server.accessKey(),
                    server.secretKey()),
                warmup.jdbcUrl());
        r = RestoreRun.inChild(params, heap, work);
        report.context("S3 requests of the warm-up and the restore", proxy.requests());
        report.context("restore JVM", "after one unmeasured warm-up restore of the same backup");
      }
      if (!r.state().equals("COMPLETED")) {
        System.err.printf(
            Locale.ROOT, "the restore ended %s (%,d items failed)%n", r.state(), r.itemsFailed());
        return 1;
      }
      double dataSeconds = r.dataMillis() / 1000.0;
      report.add(
          "S3 source",
          "mailrestore restore: its blobs",
          blobKeys.size(),
          blobBytes,
          dataSeconds,
          rawGet);
      report.add(
          "S3 source",
          "mailrestore restore: items",
          r.itemsRestored(),
          r.bytesRestored(),
          dataSeconds);
      report.restoreFigures(r);
      report.print(System.out);
      System.out.printf(
          Locale.ROOT,
          "  phase 2: %,.0f items/s, %.1f MiB/s; blobs at %.0f %% of the raw GET rate%n",
          r.itemsRestored() / dataSeconds,
          r.bytesRestored() / dataSeconds / (1 << 20),
          100 * (blobKeys.size() / dataSeconds) / rawGet.objectsPerSecond());
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
