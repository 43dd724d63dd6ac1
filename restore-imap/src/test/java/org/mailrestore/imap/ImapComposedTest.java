package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.PathFence;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.verify.Verifier;

/**
 * A whole mailbox into two places in one operation (decision 0034): the messages into a real
 * Dovecot over IMAP, everything the server cannot carry (contacts, appointments, tasks, documents)
 * into a second target; read back as one (grants as IMAP keeps them), nothing left out, nothing
 * twice.
 */
class ImapComposedTest {

  @Test
  void messagesGoToTheServerAndTheRestToTheOtherTarget(@TempDir Path dir) throws Exception {
    assumeTrue(
        DovecotServer.installed(),
        "Dovecot (dovecot-imapd, dovecot-mysql) is not installed: .ci/run installs it");
    DovecotServer dovecot = DovecotServer.get();
    Path backup = dir.resolve("backup");
    // A seed of its own: its accounts and domain are new to a server that outlives the test.
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withSeed(UUID.randomUUID().getMostSignificantBits())
            .withAccounts(2)
            .withItemsPerAccount(200)
            .withShares(true),
        backup);
    TargetSpec imap =
        TargetSpec.of(
            ImapKind.NAME,
            dovecot.url(),
            Map.of(
                ImapKind.STARTTLS, "never",
                ImapKind.PROVISION, "sql",
                ImapKind.SQL_URL, dovecot.usersJdbcUrl()));
    TargetSpec rest =
        MemoryKind.of(
            "beside-imap-" + UUID.randomUUID(),
            EnumSet.of(ItemType.CONTACT, ItemType.APPOINTMENT, ItemType.TASK, ItemType.DOCUMENT));
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put(ImapKind.USER_ENV, DovecotServer.MASTER);
    env.put(ImapKind.PASSWORD_ENV, DovecotServer.MASTER_PASSWORD);
    try (RestoreFixture f =
        new RestoreFixture(
            List.of(imap, rest), false, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE, env)) {
      OperationSummary s = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(s.counts().itemsFailed()).as(s.message()).isZero();
      assertThat(s.state()).isIn(OperationState.COMPLETED, OperationState.PARTIAL);
      assertThat(f.memoryStore().countOf(ItemType.MESSAGE)).isZero();
      assertThat(f.memoryStore().countOf(ItemType.CONTACT)).isPositive();
      assertThat(
              f.verify(backup, Verifier.Options.defaults().withCheckAliases(false)).differences())
          .isEmpty();
      OperationSummary again = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(again.counts().itemsRestored()).as("a re-run adds nothing").isZero();
    }
  }
}
