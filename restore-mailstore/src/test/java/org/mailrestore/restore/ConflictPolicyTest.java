package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mailstore.ProvisioningStore;
import org.mailrestore.mailstore.TargetAccount;
import org.mailrestore.restore.bookkeeping.AccountProgress;
import org.mailrestore.verify.Verifier;

/**
 * Each conflict policy against a target where one account of the backup already exists and holds
 * mail of its own (a live folder and a live message).
 */
class ConflictPolicyTest {

  @TempDir Path dir;
  Path backup;
  Account alice;
  List<String> others;

  @BeforeEach
  void generate() throws Exception {
    backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(80), backup);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      List<Account> accounts =
          reader.accountIds().stream()
              .map(id -> ((Parsed.Ok<Account>) reader.account(id)).value())
              .toList();
      alice = accounts.get(0);
      others = accounts.stream().skip(1).map(Account::name).toList();
    }
  }

  /** Creates the account as a live one: a folder and a message of its own. */
  private TargetAccount prepopulate(RestoreFixture f, String name) throws SQLException {
    ProvisioningStore provisioning = new ProvisioningStore(f.database.dataSource());
    int domain =
        provisioning.ensureDomain(
            new Domain(name.substring(name.indexOf('@') + 1), "active", Map.of()));
    TargetAccount account =
        provisioning.createAccount("live-" + name, name, domain, null, "active", false, null);
    try (Connection c = f.database.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "INSERT INTO mail_item (mailbox_id, id, type, folder_id, date, name) VALUES ("
              + account.mailboxId()
              + ", 256, 1, 1, 0, 'Live Folder')");
      s.executeUpdate(
          "INSERT INTO mail_item (mailbox_id, id, type, folder_id, date, subject) VALUES ("
              + account.mailboxId()
              + ", 257, 5, 2, 0, 'live mail')");
    }
    return account;
  }

  private static long count(RestoreFixture f, String sql) throws SQLException {
    try (Connection c = f.database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long userItems(RestoreFixture f, int mailbox) throws SQLException {
    return count(f, "SELECT COUNT(*) FROM mail_item WHERE id >= 256 AND mailbox_id = " + mailbox)
        + count(f, "SELECT COUNT(*) FROM tag WHERE mailbox_id = " + mailbox);
  }

  private long aliceLiveItems() throws Exception {
    return MergeOfDifferentSourcesTest.liveItems(backup, alice.id());
  }

  @Test
  void skipLeavesTheAccountAloneAndCountsItsItemsAsSkipped() throws Exception {
    try (RestoreFixture f = new RestoreFixture(dir.resolve("volume"))) {
      TargetAccount existing = prepopulate(f, alice.name());
      OperationSummary result =
          f.restore(RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.SKIP));
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      AccountProgress progress =
          f.engine.bookkeeping().accounts().list(result.id()).stream()
              .filter(a -> a.sourceAccountId().equals(alice.id()))
              .findFirst()
              .orElseThrow();
      assertThat(progress.state()).isEqualTo(AccountState.SKIPPED);
      assertThat(progress.itemsSkipped()).isEqualTo(aliceLiveItems());
      assertThat(userItems(f, existing.mailboxId())).isEqualTo(2);
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withAccounts(Set.copyOf(others)))
                  .differences())
          .isEmpty();
    }
  }

  @Test
  void mergeAddsWhatIsMissingAndKeepsWhatIsThere() throws Exception {
    try (RestoreFixture f = new RestoreFixture(dir.resolve("volume"))) {
      TargetAccount existing = prepopulate(f, alice.name());
      OperationSummary first = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(first.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(userItems(f, existing.mailboxId())).isEqualTo(aliceLiveItems() + 2);
      assertThat(count(f, "SELECT COUNT(*) FROM mail_item WHERE subject = 'live mail'"))
          .isEqualTo(1);

      // Lose some of the restored messages, then merge again: exactly those come back.
      int lost;
      try (Connection c = f.database.dataSource().getConnection();
          Statement s = c.createStatement()) {
        lost =
            s.executeUpdate(
                    "DELETE m, i FROM mail_item m JOIN restore_id_map i ON i.target_key = m.mailbox_id"
                        + " AND i.new_id = m.id WHERE m.mailbox_id = "
                        + existing.mailboxId()
                        + " AND m.type = 5 AND MOD(m.id, 3) = 0")
                / 2;
      }
      assertThat(lost).isPositive();
      OperationSummary second = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(second.counts().itemsRestored()).isEqualTo(lost);
      assertThat(userItems(f, existing.mailboxId())).isEqualTo(aliceLiveItems() + 2);
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withAccounts(Set.copyOf(others)))
                  .differences())
          .isEmpty();
    }
  }

  @Test
  void replaceEmptiesTheMailboxThenRestores() throws Exception {
    try (RestoreFixture f = new RestoreFixture(dir.resolve("volume"))) {
      TargetAccount existing = prepopulate(f, alice.name());
      OperationSummary result =
          f.restore(RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.REPLACE));
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(
              count(
                  f,
                  "SELECT COUNT(*) FROM mail_item WHERE subject = 'live mail' OR name = 'Live Folder'"))
          .isZero();
      assertThat(userItems(f, existing.mailboxId())).isEqualTo(aliceLiveItems());
      // The account keeps its own identity (uuid); everything else matches the backup.
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withAccounts(Set.of(alice.name())))
                  .differences())
          .isEmpty();
    }
  }

  @Test
  void newAccountRestoresBesideTheExistingOne() throws Exception {
    try (RestoreFixture f = new RestoreFixture(dir.resolve("volume"))) {
      TargetAccount existing = prepopulate(f, alice.name());
      RestoreRequest request =
          RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.NEW_ACCOUNT);
      OperationSummary result = f.restore(request);
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(userItems(f, existing.mailboxId())).isEqualTo(2);
      String copy = request.targetName(alice.name());
      assertThat(copy).endsWith("-restored@" + alice.domain());
      assertThat(
              f.verify(
                      backup,
                      Verifier.Options.defaults()
                          .withTargetName(request::targetName)
                          .withCheckAliases(false))
                  .differences())
          .isEmpty();
      OperationSummary again = f.restore(request);
      assertThat(again.counts().itemsRestored()).isZero();
    }
  }
}
