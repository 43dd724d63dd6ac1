package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.testkit.TestS3;

/**
 * The packaged CLI, as a process of its own, restores the same backup from a directory or a bucket
 * into every kind of volume (local, packed, S3, packed S3), each into a fresh database, and {@code
 * verify} finds no difference. The S3 profile comes from the environment, as an administrator sets
 * it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StorageMatrixIT {

  Path dir;
  Path backup;
  String backupBucket;
  Map<String, String> profile;

  @BeforeAll
  void generate(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    backup = RestoreProcesses.generate(dir.resolve("backup"), 3, 150, 17);
    backupBucket = TestS3.createBucket();
    TestS3.upload(backup, backupBucket, "nightly");
    S3Server s3 = TestS3.server();
    profile =
        Map.of(
            "MAILRESTORE_S3_TEST_ENDPOINT", s3.endpoint().toString(),
            "MAILRESTORE_S3_TEST_REGION", s3.region(),
            "MAILRESTORE_S3_TEST_ACCESS_KEY", s3.accessKey(),
            "MAILRESTORE_S3_TEST_SECRET_KEY", s3.secretKey());
  }

  @ParameterizedTest(name = "{0} backup -> {1} volume")
  @CsvSource({
    "local, local",
    "local, packed",
    "s3, s3",
    "local, s3",
    "s3, local",
    "s3, packed-s3",
  })
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void restoresAndVerifies(String source, String volumeKind) throws Exception {
    List<String> from =
        source.equals("s3")
            ? List.of("--backup", "s3://" + backupBucket + "/nightly", "--s3-profile", "test")
            : List.of("--backup", backup.toString());
    List<String> volume = new ArrayList<>();
    if (volumeKind.endsWith("s3")) {
      volume.addAll(
          List.of(
              "--volume",
              "s3://" + TestS3.createBucket() + "/volume",
              "--volume-s3-profile",
              "test"));
    } else {
      volume.addAll(List.of("--volume", dir.resolve("v-" + source + "-" + volumeKind).toString()));
    }
    if (volumeKind.startsWith("packed")) {
      volume.add("--volume-packed");
    }
    try (TestDatabase database = TestMariaDb.createDatabase()) {
      List<String> store = new ArrayList<>(Cli.database(database));
      store.addAll(volume);
      store.addAll(List.of("--volume-compression", "zstd"));

      CliProcess restore = run(database, "restore", "run", from, store);
      assertThat(restore.waitFor(120)).as(restore.output()).isZero();
      assertThat(restore.output()).containsPattern("operation +[0-9a-f-]{36} +COMPLETED");

      CliProcess verify = run(database, "verify", null, from, store);
      assertThat(verify.waitFor(120)).as(verify.output()).isZero();
      assertThat(verify.output()).contains("no differences");
    }
  }

  private CliProcess run(
      TestDatabase database, String command, String sub, List<String> from, List<String> store) {
    List<String> args = new ArrayList<>();
    args.add(command);
    if (sub != null) {
      args.add(sub);
    }
    args.addAll(from);
    args.addAll(store);
    return CliProcess.start(database.server().password(), null, profile, args);
  }
}
