package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.PathFence;
import org.mailrestore.restore.ConnectionKilledMidClusterTest;
import org.mailrestore.restore.MergeOfDifferentSourcesTest;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/**
 * The engine into the mailstore, where its rows and the engine's journal commit in one transaction:
 * what only this target shows (its tables, deduplication, a transaction killed before it commits).
 * The engine's behaviour itself is tested in restore-core.
 */
class MailstoreRestoreTest {

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

  private static RestoreFixture fixture(Path volume) throws Exception {
    return new RestoreFixture(
        MailstoreKind.of(VolumeSpec.local("default", volume.toString())),
        false,
        RestoreEngine.DEFAULT_LEASE_SECONDS,
        PathFence.NONE);
  }

  @Test
  void aRestoreDeduplicatesAndASecondRunAddsNoRow(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(4).withItemsPerAccount(200).withSystemAccounts(1),
        backup);
    try (RestoreFixture f = fixture(dir.resolve("volume"))) {
      OperationSummary first = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(first.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(first.counts().dedupHits()).as("shared list mail stored once").isPositive();
      assertThat(
              f.count(
                  "SELECT COUNT(*) FROM mountpoint m JOIN account a ON a.uuid = m.owner_uuid"
                      + " JOIN mailbox mb ON mb.account_id = a.id JOIN mail_item i"
                      + " ON i.mailbox_id = mb.id AND i.id = m.remote_folder_id"))
          .as("every mountpoint points at a restored folder")
          .isPositive()
          .isEqualTo(f.count("SELECT COUNT(*) FROM mail_item WHERE type = 13"));
      assertThat(f.count("SELECT COUNT(*) FROM acl")).isPositive();

      Map<String, Long> before = new LinkedHashMap<>();
      for (String table : MAILSTORE_TABLES) {
        before.put(table, f.count("SELECT COUNT(*) FROM " + table));
      }
      OperationSummary again = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(again.counts().itemsRestored()).isZero();
      for (String table : MAILSTORE_TABLES) {
        assertThat(f.count("SELECT COUNT(*) FROM " + table)).as(table).isEqualTo(before.get(table));
      }
    }
  }

  /**
   * A connection killed inside a cluster's transaction, before it commits: the rows and the journal
   * roll back together, the cluster is written again, nothing is lost or doubled.
   */
  @Test
  void aClusterKilledBeforeItsCommitIsWrittenOnceAgain(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(4).withItemsPerAccount(200), backup);
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    try (RestoreFixture f = fixture(dir.resolve("volume"))) {
      AtomicInteger killed = new AtomicInteger();
      AtomicBoolean armed = new AtomicBoolean();
      DataSource flaky =
          ConnectionKilledMidClusterTest.killingOnCommit(
              f.database.dataSource(), 12, killed, armed);
      try (RestoreRuntime onFlaky = f.runtime(flaky, RestoreEngine.DEFAULT_LEASE_SECONDS)) {
        onFlaky.target(null);
        RestoreEngine engine = onFlaky.engine();
        armed.set(true);
        String id =
            engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(40), null);
        OperationSummary result = engine.run(id);
        assertThat(killed).hasValue(1);
        assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
        assertThat(result.counts().itemsRestored()).isEqualTo(expected);
        assertThat(rows(f, "restore_id_map")).isEqualTo(expected);
        assertThat(rows(f, "mail_item WHERE id >= 256") + rows(f, "tag"))
            .as("folders, items and tags, each once")
            .isEqualTo(expected);
        assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
      }
    }
  }

  @Test
  void aVerifyOfAnAccountTheSourceLacksIsADifferenceNotASilentPass(@TempDir Path dir)
      throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(20), backup);
    try (RestoreFixture f = fixture(dir.resolve("volume"))) {
      f.restore(RestoreRequest.local(backup.toString()));
      VerifyReport one =
          f.verify(
              backup, Verifier.Options.defaults().withAccounts(Set.of("Alice.0000@acme.example")));
      assertThat(one.differences()).isEmpty();
      assertThat(one.accounts()).isEqualTo(1);

      VerifyReport typo =
          f.verify(
              backup,
              Verifier.Options.defaults()
                  .withAccounts(Set.of("alice.0000@acme.example", "alice.000@acme.example")));
      assertThat(typo.accounts()).isEqualTo(1);
      assertThat(typo.identical()).isFalse();
      assertThat(typo.differences())
          .containsExactly(
              "account alice.000@acme.example is not in the source (no readable account)");
    }
  }

  private static long rows(RestoreFixture f, String table) throws SQLException {
    return f.count("SELECT COUNT(*) FROM " + table);
  }
}
