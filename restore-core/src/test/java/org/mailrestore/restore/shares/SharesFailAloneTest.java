package org.mailrestore.restore.shares;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Parsed;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;

/**
 * Phase 3 fails only what failed (issue 41): a grant on a folder that was not restored, an account
 * whose shares cannot be read, a target that breaks on one account's grants; each is recorded
 * against that account with its reason, and every other account's grants are restored.
 */
class SharesFailAloneTest {

  @TempDir Path dir;

  private Path backup;

  /** Account id to its address and its grants in the backup, for accounts that share. */
  private final Map<String, String> names = new LinkedHashMap<>();

  private final Map<String, List<Grant>> grants = new LinkedHashMap<>();

  @BeforeEach
  void generate() throws Exception {
    backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(12).withItemsPerAccount(30).withLargeRate(0), backup);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        if (reader.account(id) instanceof Parsed.Ok<Account>(Account a, String at)
            && reader.grants(id) instanceof Parsed.Ok<List<Grant>>(List<Grant> g, String where)
            && !g.isEmpty()) {
          names.put(id, a.name());
          grants.put(id, g);
        }
      }
    }
    assertThat(grants).as("the generated backup shares folders").hasSizeGreaterThanOrEqualTo(3);
  }

  private String nth(int i) {
    return new ArrayList<>(grants.keySet()).get(i);
  }

  private void writeShares(String accountId, String json) throws Exception {
    Files.writeString(
        backup.resolve(BackupLayout.sharesFile(accountId)), json, StandardCharsets.UTF_8);
  }

  private static List<FailureRecord> failures(RestoreFixture f, String id) throws Exception {
    return f.engine.bookkeeping().failures().list(id, 0, 1000);
  }

  @Test
  void aGrantOnAFolderNotRestoredAndSharesUnreadableFailAlone() throws Exception {
    String missing = nth(0);
    String unreadable = nth(1);
    String fine = nth(2);
    Grant first = grants.get(missing).get(0);
    // A grant on a folder the account's backup does not hold (the ternary that unboxed a null).
    StringBuilder json = new StringBuilder("{\"grants\":[");
    for (Grant g : grants.get(missing)) {
      json.append(grantJson(g.folderId(), g)).append(',');
    }
    json.append(grantJson(99_999, first)).append("]}");
    writeShares(missing, json.toString());
    writeShares(unreadable, "{\"grants\":[{\"folderId\":");

    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary s = f.restore(RestoreRequest.of(BackupSourceKind.local(backup)));
      assertThat(s.state()).as(s.message()).isNotEqualTo(OperationState.FAILED);
      List<FailureRecord> failures = failures(f, s.id());
      assertThat(failures)
          .as("the grant on folder 99999, against its account")
          .anySatisfy(r -> {
            assertThat(r.reason()).isEqualTo("GRANT_FOLDER_MISSING");
            assertThat(r.sourceAccountId()).isEqualTo(missing);
            assertThat(r.itemId()).isEqualTo(99_999);
            assertThat(r.detail()).contains("99999").contains("not restored");
          });
      assertThat(failures)
          .anySatisfy(r -> {
            assertThat(r.reason()).isEqualTo("SHARES_UNREADABLE");
            assertThat(r.sourceAccountId()).isEqualTo(unreadable);
          });
      assertThat(failures).noneMatch(r -> r.reason().equals("INTERNAL_ERROR"));
      assertThat(f.memoryStore().grants(names.get(missing)))
          .as("the account's other grants are restored")
          .hasSize(grants.get(missing).size());
      assertThat(f.memoryStore().grants(names.get(unreadable))).isEmpty();
      assertThat(f.memoryStore().grants(names.get(fine))).hasSize(grants.get(fine).size());
    }
  }

  @Test
  void aTargetBrokenOnOneAccountsGrantsFailsThatAccountOnly() throws Exception {
    String broken = nth(0);
    try (RestoreFixture f = new RestoreFixture()) {
      f.memoryStore().breakGrantsOf(names.get(broken));
      OperationSummary s = f.restore(RestoreRequest.of(BackupSourceKind.local(backup)));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(failures(f, s.id()))
          .anySatisfy(r -> {
            assertThat(r.reason()).isEqualTo("INTERNAL_ERROR");
            assertThat(r.sourceAccountId()).isEqualTo(broken);
            assertThat(r.detail()).contains("grants");
          });
      for (String id : grants.keySet()) {
        if (!id.equals(broken)) {
          assertThat(f.memoryStore().grants(names.get(id)))
              .as("the grants of %s", names.get(id))
              .hasSize(grants.get(id).size());
        }
      }
    }
  }

  private static String grantJson(int folderId, Grant g) {
    return "{\"folderId\":"
        + folderId
        + ",\"granteeType\":\""
        + g.granteeType().wireName()
        + "\""
        + (g.granteeId() == null ? "" : ",\"granteeId\":\"" + g.granteeId() + "\"")
        + (g.granteeName() == null ? "" : ",\"granteeName\":\"" + g.granteeName() + "\"")
        + ",\"rights\":\""
        + g.rights()
        + "\"}";
  }
}
