package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/** A generated backup restored into a real MariaDB and a local volume, then verified. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestoreEndToEndTest {

  @TempDir static Path dir;
  Path backup;
  RestoreFixture fixture;
  BackupGenerator.Report generated;
  OperationSummary first;

  @BeforeAll
  void restoreOnce() throws Exception {
    backup = dir.resolve("backup");
    generated =
        BackupGenerator.generate(
            GeneratorSpec.defaults().withAccounts(6).withItemsPerAccount(300).withSystemAccounts(1),
            backup);
    fixture = new RestoreFixture(dir.resolve("volume"));
    first = fixture.restore(RestoreRequest.local(backup.toString()).withClusterSize(97));
  }

  @AfterAll
  void close() {
    fixture.close();
  }

  @Test
  void allThreePhasesRunAndEverythingIsRestored() {
    assertThat(first.state()).isEqualTo(OperationState.COMPLETED);
    assertThat(first.counts().accounts()).isEqualTo(7);
    assertThat(first.counts().accountsDone()).isEqualTo(7);
    assertThat(first.counts().itemsFailed()).isZero();
    assertThat(first.counts().itemsRestored()).isGreaterThan(6 * 250);
    assertThat(first.counts().dedupHits()).isGreaterThan(0);
    assertThat(first.provisioningMillis()).isNotNull();
    assertThat(first.dataMillis()).isNotNull();
    assertThat(first.sharesMillis()).isNotNull();
  }

  @Test
  void verifyFindsNoDifference() throws Exception {
    VerifyReport report = fixture.verify(backup, Verifier.Options.defaults());
    assertThat(report.differences()).isEmpty();
    assertThat(report.identical()).isTrue();
    assertThat(report.accounts()).isEqualTo(7);
    assertThat(report.items()).isEqualTo(first.counts().itemsRestored());
    assertThat(report.blobsChecked()).isGreaterThan(1000);
  }

  @Test
  void sharesAndMountpointsPointAtRestoredIds() throws SQLException {
    try (var c = fixture.database.dataSource().getConnection();
        var s = c.createStatement()) {
      var rs = s.executeQuery("SELECT COUNT(*) FROM acl");
      rs.next();
      assertThat(rs.getInt(1)).isPositive();
      rs =
          s.executeQuery(
              "SELECT COUNT(*) FROM mountpoint m JOIN account a ON a.uuid = m.owner_uuid"
                  + " JOIN mailbox mb ON mb.account_id = a.id"
                  + " JOIN mail_item f ON f.mailbox_id = mb.id AND f.id = m.remote_folder_id");
      rs.next();
      int resolved = rs.getInt(1);
      rs = s.executeQuery("SELECT COUNT(*) FROM mail_item WHERE type = 13");
      rs.next();
      assertThat(resolved).isPositive().isEqualTo(rs.getInt(1));
    }
  }

  static final List<String> MAILSTORE_TABLES =
      List.of(
          "domain",
          "cos",
          "account",
          "account_alias",
          "distribution_list",
          "list_member",
          "mailbox",
          "mail_item",
          "tag",
          "tagged_item",
          "acl",
          "mountpoint",
          "volume_blob",
          "restore_id_map",
          "restore_source");

  @Test
  void aSecondRunSkipsEverythingAndAddsNothing() throws Exception {
    java.util.Map<String, Long> before = new java.util.LinkedHashMap<>();
    for (String table : MAILSTORE_TABLES) {
      before.put(table, count(table));
    }
    OperationSummary again = fixture.restore(RestoreRequest.local(backup.toString()));
    assertThat(again.state()).isEqualTo(OperationState.COMPLETED);
    assertThat(again.counts().itemsRestored()).isZero();
    assertThat(again.counts().itemsSkipped()).isEqualTo(first.counts().itemsRestored());
    for (String table : MAILSTORE_TABLES) {
      assertThat(count(table)).as(table).isEqualTo(before.get(table));
    }
    assertThat(fixture.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
  }

  private long count(String table) throws SQLException {
    try (var c = fixture.database.dataSource().getConnection();
        var s = c.createStatement();
        var rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aMissingBlobFailsThatItemOnly(@TempDir Path other) throws Exception {
    Path copy = other.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(5).withItemsPerAccount(120), copy);
    Item victim = firstMessage(copy);
    Path blob;
    try (Stream<Path> files = Files.walk(copy.resolve("blobs"))) {
      blob =
          files
              .filter(p ->
                  p.getFileName()
                      .toString()
                      .startsWith(victim.latest().orElseThrow().digest().hex()))
              .findFirst()
              .orElseThrow();
    }
    Files.delete(blob);
    try (RestoreFixture f = new RestoreFixture(other.resolve("volume"))) {
      OperationSummary result = f.restore(RestoreRequest.local(copy.toString()));
      assertThat(result.state()).isEqualTo(OperationState.PARTIAL);
      List<FailureRecord> failures = f.engine.bookkeeping().failures().list(result.id(), 0, 100);
      Set<String> failedKeys =
          failures.stream()
              .map(r -> Verifier.Options.key(r.sourceAccountId(), r.itemId()))
              .collect(Collectors.toSet());
      // Every item pointing at that blob failed (a shared list message fails in each mailbox).
      assertThat(failures)
          .isNotEmpty()
          .allSatisfy(r -> {
            assertThat(r.reason()).isEqualTo("BLOB_MISSING");
            assertThat(r.detail()).contains(victim.latest().orElseThrow().digest().hex());
          });
      assertThat(result.counts().itemsFailed()).isEqualTo(failures.size());
      VerifyReport report =
          f.verify(copy, Verifier.Options.defaults().withKnownFailures(failedKeys));
      assertThat(report.differences()).isEmpty();
      assertThat(report.excused()).isEqualTo(failures.size());
    }
  }

  private static Item firstMessage(Path backup) throws IOException {
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup));
        ItemStream stream = reader.items(reader.accountIds().get(0), Set.of(ItemType.MESSAGE))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded(Item item, String location, var passing)
            && item.latest().isPresent()) {
          return item;
        }
      }
    }
    throw new IllegalStateException("no message");
  }

  @Test
  void anUnknownFormatVersionFailsTheOperationWithAClearMessage(@TempDir Path other)
      throws Exception {
    Files.writeString(
        other.resolve("backup.json"),
        "{\"format\":\"mailrestore-backup\",\"version\":\"9.1\",\"serverId\":\"x\"}");
    OperationSummary result = fixture.restore(RestoreRequest.local(other.toString()));
    assertThat(result.state()).isEqualTo(OperationState.FAILED);
    assertThat(result.message()).contains("format version 9.1").contains("1.x");
  }
}
