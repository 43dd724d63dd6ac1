package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RecordingJournal;
import org.mailrestore.destination.RestoredStore.RestoredItem;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.testkit.CyrusServer;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.TcpCutProxy;

/** The target contract against real servers started by the tests. */
class ImapContractTest {

  /** Every account the contract provisions. */
  static DovecotServer dovecot() throws Exception {
    assumeTrue(
        DovecotServer.installed(),
        "Dovecot (dovecot-imapd, dovecot-mysql) is not installed: .ci/run installs it");
    return DovecotServer.get();
  }

  static CyrusServer cyrus() throws Exception {
    assumeTrue(
        CyrusServer.installed(),
        "Cyrus (cyrus-common, sasl2-bin and cyrus-imapd's imapd) is not here: .ci/run installs it");
    return CyrusServer.get();
  }

  /**
   * Dovecot with its SQL userdb: accounts created by {@code --provision sql}, master user by SASL
   * authzid.
   */
  @Nested
  class DovecotProvisioningSql extends OnAServerThatOutlivesTheTest {
    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      DovecotServer dovecot = dovecot();
      return TargetSpec.of(
              ImapKind.NAME,
              dovecot.url(),
              Map.of(
                  ImapKind.STARTTLS, "never",
                  ImapKind.PROVISION, "sql",
                  ImapKind.SQL_URL, dovecot.usersJdbcUrl()))
          .open(withAdmin(context, DovecotServer.MASTER, DovecotServer.MASTER_PASSWORD));
    }
  }

  /**
   * Dovecot as older or smaller servers are: no LITERAL+, so each literal waits for the server's
   * go-ahead, and a size limit it checks before it gives one.
   */
  @Nested
  class DovecotWithoutLiteralPlus extends OnAServerThatOutlivesTheTest {
    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      assumeTrue(DovecotServer.installed(), "Dovecot is not installed: .ci/run installs it");
      DovecotServer dovecot = DovecotServer.withoutLiteralPlus();
      return existingAccounts(dovecot, dovecot.url(), domain(), context);
    }

    /**
     * A server may refuse a literal when it is announced, as this one does a message over its size
     * limit: that message fails alone with the server's words, and the rest is written. Before, the
     * refusal was taken for a broken connection: the cluster was tried five times over 15 s, and
     * the account failed.
     */
    @Test
    void aMessageTheServerRefusesBeforeItsLiteralFailsAlone() throws Exception {
      byte[] head = "From: a@example.org\nSubject: over\n\n".getBytes(StandardCharsets.UTF_8);
      byte[] over = java.util.Arrays.copyOf(head, (int) DovecotServer.SIZE_LIMIT + (1 << 20));
      java.util.Arrays.fill(over, head.length, over.length, (byte) 'o');
      for (int i = head.length + 70; i < over.length; i += 71) {
        over[i] = '\n';
      }
      List<byte[]> messages =
          List.of(
              "Subject: small\r\n\r\nfirst\r\n".getBytes(StandardCharsets.UTF_8),
              ("Subject: 6 KB\r\n\r\n" + "x".repeat(6000) + "\r\n")
                  .getBytes(StandardCharsets.UTF_8),
              over,
              "Subject: small\r\n\r\nlast\r\n".getBytes(StandardCharsets.UTF_8));
      ProvisionedAccount account = provision("max");
      try (MailboxWriter writer = target().mailbox(account, context())) {
        List<ItemToWrite> items = new ArrayList<>();
        for (byte[] bytes : messages) {
          Revision state =
              Revision.builder(1, 0)
                  .folder(SystemFolder.INBOX.id())
                  .date(1_700_000_000_000L)
                  .blob(bytes.length, lend(bytes))
                  .build();
          items.add(
              new ItemToWrite(
                  7100 + items.size(),
                  ItemType.MESSAGE,
                  state,
                  SystemFolder.INBOX.id(),
                  "message " + items.size(),
                  null));
        }
        RecordingJournal journal = journal("max", 1);
        writer.writeItems(new ItemBatch(1, items, false), journal);
        assertThat(journal.mappings()).containsOnlyKeys(7100, 7101, 7103);
        assertThat(journal.failures())
            .singleElement()
            .satisfies(f -> {
              assertThat(f.oldId()).isEqualTo(7102);
              assertThat(f.reason()).isEqualTo(FailureReason.TARGET_REFUSED);
              assertThat(f.detail()).contains("LIMIT");
            });
      }
    }
  }

  /**
   * Dovecot with accounts that exist already, the master user as {@code user*master}; reached
   * through a forwarder that counts the connections.
   */
  @Nested
  class DovecotExistingAccountsSeparator extends OnAServerThatOutlivesTheTest {
    private TcpCutProxy forwarder;

    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      DovecotServer dovecot = dovecot();
      forwarder = TcpCutProxy.forward(InetAddress.getLoopbackAddress(), dovecot.port());
      return existingAccounts(dovecot, "imap://127.0.0.1:" + forwarder.port(), domain(), context);
    }

    @AfterEach
    void closeForwarder() throws Exception {
      forwarder.close();
    }

    /**
     * Phase 1's login serves phase 2, and two clusters in flight take turns on the account's one
     * session: a login costs Dovecot a process, more than a small account's messages.
     */
    @Test
    void anAccountIsProvisionedAndWrittenOverOneLogin() throws Exception {
      int before = forwarder.connections();
      ProvisionedAccount account = provision("hal");
      try (MailboxWriter writer = target().mailbox(account, context())) {
        Map<Integer, Integer> folders = writeFolders(writer, "hal");
        List<RecordingJournal> journals = new ArrayList<>();
        List<Future<?>> clusters = new ArrayList<>();
        try (ExecutorService inFlight = Executors.newFixedThreadPool(2)) {
          for (int seq = 1; seq <= 2; seq++) {
            List<ItemToWrite> items = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
              int oldId = seq * 1000 + i;
              items.add(item(oldId, folders.get(300 + i % 2), "m" + oldId, "", List.of()));
            }
            RecordingJournal journal = journal("hal", seq);
            journals.add(journal);
            ItemBatch batch = new ItemBatch(seq, items, false);
            clusters.add(
                inFlight.submit(() -> {
                  writer.writeItems(batch, journal);
                  return null;
                }));
          }
          for (Future<?> cluster : clusters) {
            cluster.get();
          }
        }
        writer.finish();
        for (RecordingJournal journal : journals) {
          assertThat(journal.failures()).isEmpty();
          assertThat(journal.itemsRestored()).isEqualTo(20);
        }
      }
      assertThat(forwarder.connections() - before).as("logins as hal").isEqualTo(1);
    }
  }

  /**
   * Cyrus with accounts its admin created, logged in as each user by SASL PLAIN with an
   * authorization identity (the admin is a proxy server).
   */
  @Nested
  class CyrusExistingAccountsAuthzid extends OnAServerThatOutlivesTheTest {
    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      CyrusServer cyrus = cyrus();
      for (String user : MailTargetContract.USERS) {
        cyrus.addUser(user + "@" + domain());
      }
      return TargetSpec.of(
              ImapKind.NAME,
              cyrus.url(),
              Map.of(ImapKind.STARTTLS, "never", ImapKind.ALL_USERS, "anyone"))
          .open(withAdmin(context, CyrusServer.ADMIN, CyrusServer.ADMIN_PASSWORD));
    }
  }

  /** The server keeps its mailboxes from test to test: each test gets a domain of its own. */
  abstract static class OnAServerThatOutlivesTheTest extends MailTargetContract {
    private final String domain =
        "c" + UUID.randomUUID().toString().substring(0, 8) + ".example.org";

    @Override
    protected String domain() {
      return domain;
    }

    @Test
    void aMessageOfNoDeclaredSizeIsHeldOrSpooledAsItTurnsOut() throws Exception {
      // A source may declare no size: read up to SpooledMessage.FROM, the rest spooled past it.
      byte[] small =
          "From: a@example.org\r\nSubject: small\r\n\r\nbody\n".getBytes(StandardCharsets.UTF_8);
      byte[] head = "From: a@example.org\nSubject: large\n\n".getBytes(StandardCharsets.UTF_8);
      byte[] large = java.util.Arrays.copyOf(head, (int) SpooledMessage.FROM + 4096);
      java.util.Arrays.fill(large, head.length, large.length, (byte) 'z');
      for (int i = head.length + 70; i < large.length; i += 71) {
        large[i] = '\n';
      }
      ProvisionedAccount account = provision("max");
      try (MailboxWriter writer = target().mailbox(account, context())) {
        List<ItemToWrite> items = new ArrayList<>();
        for (byte[] bytes : List.of(small, large)) {
          Revision state =
              Revision.builder(1, 0)
                  .folder(SystemFolder.INBOX.id())
                  .date(1_700_000_000_000L)
                  .blob(0, lend(bytes))
                  .build();
          items.add(
              new ItemToWrite(
                  7000 + items.size(),
                  ItemType.MESSAGE,
                  state,
                  SystemFolder.INBOX.id(),
                  "no size",
                  null));
        }
        RecordingJournal journal = journal("max", 1);
        writer.writeItems(new ItemBatch(1, items, false), journal);
        assertThat(journal.failures()).isEmpty();
        Map<Integer, RestoredItem> held =
            target().readBack().items(account, journal.mappings().values());
        for (int i = 0; i < items.size(); i++) {
          RestoredItem read = held.get(journal.mappings().get(7000 + i));
          byte[] expected = i == 0 ? small : large;
          assertThat(read.item().revisions().get(0).digest())
              .isEqualTo(BlobDigest.ofContent(expected));
          try (InputStream in = read.content().open()) {
            assertThat(in.readAllBytes()).isEqualTo(expected);
          }
        }
      }
    }
  }

  /**
   * The target at {@code url} (the Dovecot or a forwarder to it) with the contract's accounts made
   * there first, the master user as {@code user*master}.
   */
  static MailTarget existingAccounts(
      DovecotServer dovecot, String url, String domain, TargetContext context) throws Exception {
    for (String user : MailTargetContract.USERS) {
      dovecot.addUser(user + "@" + domain);
    }
    return TargetSpec.of(
            ImapKind.NAME, url, Map.of(ImapKind.STARTTLS, "never", ImapKind.LOGIN, "separator"))
        .open(withAdmin(context, DovecotServer.MASTER, DovecotServer.MASTER_PASSWORD));
  }

  static TargetContext withAdmin(TargetContext context, String user, String password) {
    Map<String, String> env = new HashMap<>(context.environment());
    env.put(ImapKind.USER_ENV, user);
    env.put(ImapKind.PASSWORD_ENV, password);
    return new TargetContext(
        context.bookkeeping(), context.s3(), context.limits(), context.registry(), env);
  }
}
