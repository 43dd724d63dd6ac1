package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.restore.storage.VolumeSpec;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.verify.Verifier;

/** The same backup from disk or a bucket, into every kind of volume: verify finds no difference. */
class StorageMatrixTest {

  @TempDir static Path dir;
  static Path backup;
  static String backupBucket;

  @BeforeAll
  static void generate() throws Exception {
    backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(4)
            .withItemsPerAccount(120)
            .withLargeRate(0.01)
            .withBlobCompression(BlobCompression.ZSTD),
        backup);
    backupBucket = TestS3.createBucket();
    TestS3.upload(backup, backupBucket, "nightly");
  }

  @ParameterizedTest(name = "{0} backup -> {1} volume")
  @CsvSource({
    "local, local",
    "local, packed-local",
    "s3, s3",
    "local, s3",
    "s3, local",
    "s3, packed-s3",
  })
  void restoresAndVerifies(String source, String volumeKind) throws Exception {
    VolumeSpec.Kind kind = VolumeSpec.Kind.parse(volumeKind);
    String location =
        kind.isS3()
            ? "s3://" + TestS3.createBucket() + "/volume"
            : dir.resolve("v-" + source + "-" + volumeKind).toString();
    VolumeSpec volume =
        new VolumeSpec(
            "v", kind, location, BlobCompression.ZSTD, 2048, 0, kind.isS3() ? "test" : null);
    BackupSource from =
        source.equals("s3")
            ? new BackupSource.S3("test", backupBucket, "nightly")
            : new BackupSource.Local(backup.toString());
    try (RestoreFixture f = new RestoreFixture(volume, true)) {
      RestoreRequest request =
          new RestoreRequest(
              from, Selection.ALL, null, null, null, ConflictPolicy.MERGE, null, 0, 100, null);
      OperationSummary result = f.restore(request);
      assertThat(result.state()).as(result.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(result.counts().itemsRestored()).isPositive();
      var report = f.verify(from, Verifier.Options.defaults());
      assertThat(report.differences()).isEmpty();
      assertThat(report.blobsChecked()).isPositive();
    }
  }
}
