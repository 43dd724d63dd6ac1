package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.testkit.FaultProxy;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/**
 * The service restores an S3 backup into an S3 volume through a proxy that delays every request by
 * 15 ms, answers some 503 SlowDown or 500, and resets some connections mid-body. The restore
 * completes with nothing lost (verified against the real server, not through the proxy), and the
 * retries show in the service's metrics.
 */
class S3FaultsIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aRestoreThroughFaultsCompletesExactlyAndCountsItsRetries() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(4 * Soak.scale())
            .withItemsPerAccount(150)
            .withLargeRate(0.02),
        backup);
    String backupBucket = TestS3.createBucket();
    TestS3.upload(backup, backupBucket, "nightly");
    String volumeBucket = TestS3.createBucket();
    S3Server s3 = TestS3.server();

    FaultProxy.Faults faults = new FaultProxy.Faults(0.04, 0.03, 0.05, Duration.ofMillis(15), 42);
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint(), faults);
        ServiceProcess service =
            ServiceProcess.start(
                own.database(),
                dir,
                Files.createDirectories(dir.resolve("roots")),
                ServiceProcess.settings(
                    ServiceProcess.s3Profile("faulty", proxy.endpoint(), s3),
                    "--mailrestore.volume.kind=s3",
                    "--mailrestore.volume.location=s3://" + volumeBucket + "/volume",
                    "--mailrestore.volume.s3-profile=faulty"))) {
      Cli.Result restored =
          service.cli(
              "restore",
              "start",
              "--backup",
              "s3://" + backupBucket + "/nightly",
              "--s3-profile",
              "faulty",
              "--watch");
      assertThat(restored.exitCode())
          .as(restored.out() + service.cli("restore", "failures", restored.operation()).out())
          .isZero();
      assertThat(restored.out()).contains("COMPLETED");

      assertThat(proxy.slowDowns()).as(proxy.toString()).isPositive();
      assertThat(proxy.serverErrors()).as(proxy.toString()).isPositive();
      assertThat(proxy.resets()).as(proxy.toString()).isPositive();
      String metrics = service.get("/actuator/prometheus");
      double retries =
          Metrics.sum(metrics, "mailrestore_s3_retries_total")
              + Metrics.sum(metrics, "mailrestore_blob_retries_total");
      assertThat(retries).as("retries counted").isPositive();
    }

    // Checked against the S3 server itself: the proxy has no say in what is there.
    S3Settings direct = S3Settings.of(s3.endpoint(), s3.region(), s3.accessKey(), s3.secretKey());
    try (RestoreRuntime runtime =
        RestoreRuntime.builder()
            .dataSource(own.database().dataSource())
            .s3Profiles(Map.of("faulty", direct))
            .defaultTarget(new TargetSpec(MailstoreKind.NAME, null, null))
            .build()) {
      VerifyReport report =
          runtime.verify(
              SourceSpec.of(BackupSourceKind.NAME, "s3://" + backupBucket + "/nightly")
                  .withProfile("faulty"),
              null,
              Verifier.Options.defaults());
      assertThat(report.differences()).isEmpty();
      assertThat(report.blobsChecked()).isPositive();
    }
  }
}
