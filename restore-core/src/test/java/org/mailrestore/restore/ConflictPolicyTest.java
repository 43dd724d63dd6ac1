package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
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

  private static long userItems(RestoreFixture f, ProvisionedAccount account) throws Exception {
    return f.store().countItems(account);
  }

  private long aliceLiveItems() throws Exception {
    return MergeOfDifferentSourcesTest.liveItems(backup, alice.id());
  }

  @Test
  void skipLeavesTheAccountAloneAndCountsItsItemsAsSkipped() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      ProvisionedAccount existing = LiveMailbox.create(f, alice.name());
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
      assertThat(userItems(f, existing)).isEqualTo(2);
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withAccounts(Set.copyOf(others)))
                  .differences())
          .isEmpty();
    }
  }

  @Test
  void mergeAddsWhatIsMissingAndKeepsWhatIsThere() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      ProvisionedAccount existing = LiveMailbox.create(f, alice.name());
      OperationSummary first = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(first.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(userItems(f, existing)).isEqualTo(aliceLiveItems() + 2);
      assertThat(StoreContents.withSubject(f, LiveMailbox.SUBJECT)).isEqualTo(1);

      // Lose some of the restored messages, then merge again: exactly those come back.
      List<Integer> gone =
          f.memoryStore().delete(alice.name(), ItemType.MESSAGE, id -> id % 3 == 0);
      int lost = gone.size();
      try (Connection c = f.database.dataSource().getConnection();
          Statement s = c.createStatement()) {
        // As the mailstore deletes a row and its id map entry together.
        s.executeUpdate(
            "DELETE FROM restore_id_map WHERE target_key = "
                + existing.key()
                + " AND new_id IN ("
                + String.join(",", gone.stream().map(String::valueOf).toList())
                + ")");
      }
      assertThat(lost).isPositive();
      OperationSummary second = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(second.counts().itemsRestored()).isEqualTo(lost);
      assertThat(userItems(f, existing)).isEqualTo(aliceLiveItems() + 2);
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withAccounts(Set.copyOf(others)))
                  .differences())
          .isEmpty();
    }
  }

  @Test
  void replaceEmptiesTheMailboxThenRestores() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      ProvisionedAccount existing = LiveMailbox.create(f, alice.name());
      OperationSummary result =
          f.restore(RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.REPLACE));
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.withSubject(f, LiveMailbox.SUBJECT)).isZero();
      assertThat(StoreContents.held(f)).noneMatch(h -> LiveMailbox.FOLDER.equals(h.state().name()));
      assertThat(userItems(f, existing)).isEqualTo(aliceLiveItems());
      // The account keeps its own identity (uuid); everything else matches the backup.
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withAccounts(Set.of(alice.name())))
                  .differences())
          .isEmpty();
    }
  }

  @Test
  void newAccountRestoresBesideTheExistingOne() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      ProvisionedAccount existing = LiveMailbox.create(f, alice.name());
      RestoreRequest request =
          RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.NEW_ACCOUNT);
      OperationSummary result = f.restore(request);
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(userItems(f, existing)).isEqualTo(2);
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
