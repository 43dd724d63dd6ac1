package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.Item;
import org.mailrestore.backup.ItemEntry;
import org.mailrestore.backup.ItemStream;
import org.mailrestore.backup.ItemType;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * The local commands against a real MariaDB: generate, inspect, restore run, verify. Each test has
 * a database of its own: verify expects a restore into an empty mailstore.
 */
class CliRestoreIT {

  @TempDir Path dir;
  TestDatabase database;

  @BeforeEach
  void createDatabase() {
    database = TestMariaDb.createDatabase();
  }

  @AfterEach
  void dropDatabase() {
    database.close();
  }

  private String[] store(String... args) {
    String[] common = {
      "--jdbc-url",
      database.jdbcUrl(),
      "--db-user",
      database.server().user(),
      "--volume",
      dir.resolve("volume").toString()
    };
    String[] all = new String[args.length + common.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(common, 0, all, args.length, common.length);
    return all;
  }

  @Test
  void generateRestoreVerifyAndRerun() {
    Path backup = dir.resolve("backup");
    Cli.Result generated =
        Cli.run(
            "backup",
            "generate",
            "--out",
            backup.toString(),
            "--accounts",
            "5",
            "--items",
            "120",
            "--seed",
            "7");
    assertThat(generated.exitCode()).as(generated.out()).isZero();
    assertThat(generated.out()).contains("6 accounts");

    Cli.Result inspected = Cli.run("backup", "inspect", backup.toString());
    assertThat(inspected.exitCode()).as(inspected.out()).isZero();
    assertThat(inspected.out()).contains("format mailrestore-backup 1.0").contains("6 accounts");

    Cli.Result restored = Cli.run(store("restore", "run", "--backup", backup.toString()));
    assertThat(restored.exitCode()).as(restored.out()).isZero();
    assertThat(restored.out()).containsPattern("operation +[0-9a-f-]{36} +COMPLETED");

    Cli.Result verified = Cli.run(store("verify", "--backup", backup.toString()));
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");

    Cli.Result again = Cli.run(store("restore", "run", "--backup", backup.toString()));
    assertThat(again.exitCode()).as(again.out()).isZero();
    assertThat(again.out()).containsPattern("items +0 restored, [1-9][0-9,]* skipped, 0 failed");
  }

  @Test
  void anAccountsFileRestoresOnlyTheAccountsItLists() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 4, 50, 3);
    Path list = dir.resolve("accounts.txt");
    Files.writeString(
        list, "# the two we need back\nalice.0000@acme.example\n\n  bob.0001@globex.example\n");
    Cli.Result restored =
        Cli.run(
            store(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--accounts-file",
                list.toString(),
                "--concurrent-accounts",
                "1"));
    assertThat(restored.exitCode()).as(restored.out()).isZero();
    assertThat(restored.out()).contains("accounts    2 (0 failed)");

    Files.writeString(list, "# nobody\n");
    Cli.Result empty =
        Cli.run(
            store(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--accounts-file",
                list.toString()));
    assertThat(empty.exitCode()).isEqualTo(3);
    assertThat(empty.out()).doesNotContain("operation ");
  }

  @Test
  void aBackupOfAnUnknownVersionIsRefusedByName() throws Exception {
    Path bad = Files.createDirectories(dir.resolve("future"));
    Files.writeString(
        bad.resolve("backup.json"), "{\"format\":\"mailrestore-backup\",\"version\":\"3.0\"}");
    Cli.Result inspected = Cli.run("backup", "inspect", bad.toString());
    assertThat(inspected.exitCode()).isEqualTo(3);
    Cli.Result restored = Cli.run(store("restore", "run", "--backup", bad.toString()));
    assertThat(restored.exitCode()).as(restored.out()).isEqualTo(3);
    assertThat(restored.out()).contains("FAILED").contains("format version 3.0");
  }

  @Test
  void aTruncatedItemFileAndAMissingBlobAreListedAndTheRestGoesOn() throws Exception {
    Path backup = dir.resolve("damaged");
    assertThat(
            Cli.run(
                    "backup",
                    "generate",
                    "--out",
                    backup.toString(),
                    "--accounts",
                    "3",
                    "--items",
                    "80",
                    "--layout",
                    "loose",
                    "--seed",
                    "9",
                    "--no-shares")
                .exitCode())
        .isZero();
    Path itemFile;
    try (Stream<Path> files = Files.walk(backup.resolve("accounts"))) {
      itemFile =
          files
              .filter(p -> p.toString().contains("/items/") && p.toString().endsWith(".json"))
              .filter(p -> p.getFileName().toString().compareTo("300") > 0)
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(itemFile);
    Files.write(itemFile, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    String digest = liveMessageDigest(backup);
    Files.delete(backup.resolve("blobs/" + digest.substring(0, 2) + "/" + digest));

    Cli.Result restored =
        Cli.run(
            "restore",
            "run",
            "--backup",
            backup.toString(),
            "--jdbc-url",
            database.jdbcUrl(),
            "--db-user",
            database.server().user(),
            "--volume",
            dir.resolve("volume-damaged").toString(),
            "--volume-name",
            "damaged");
    assertThat(restored.exitCode()).as(restored.out()).isEqualTo(1);
    String itemName = itemFile.getFileName().toString();
    assertThat(restored.out())
        .contains("PARTIAL")
        .contains("INVALID_ITEM")
        .contains(itemName)
        .contains("item " + itemName.replace(".json", ""))
        .contains("BLOB_MISSING")
        .contains(digest);
  }

  /** The digest of a message that exists in the latest state (so the restore needs its blob). */
  private static String liveMessageDigest(Path backup) throws java.io.IOException {
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        try (ItemStream stream = reader.items(id, java.util.Set.of(ItemType.MESSAGE))) {
          while (stream.hasNext()) {
            if (stream.next() instanceof ItemEntry.Decoded(Item item, String location)
                && item.latest().isPresent()) {
              return item.latest().get().digest().hex();
            }
          }
        }
      }
    }
    throw new IllegalStateException("no live message in " + backup);
  }
}
