package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
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
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RecordingJournal;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
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
   * Dovecot with accounts that exist already, the master user as {@code user*master}; reached
   * through a forwarder that counts the connections.
   */
  @Nested
  class DovecotExistingAccountsSeparator extends OnAServerThatOutlivesTheTest {
    private TcpCutProxy forwarder;

    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      DovecotServer dovecot = dovecot();
      for (String user : MailTargetContract.USERS) {
        dovecot.addUser(user + "@" + domain());
      }
      forwarder = TcpCutProxy.forward(InetAddress.getLoopbackAddress(), dovecot.port());
      return TargetSpec.of(
              ImapKind.NAME,
              "imap://127.0.0.1:" + forwarder.port(),
              Map.of(ImapKind.STARTTLS, "never", ImapKind.LOGIN, "separator"))
          .open(withAdmin(context, DovecotServer.MASTER, DovecotServer.MASTER_PASSWORD));
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
  }

  static TargetContext withAdmin(TargetContext context, String user, String password) {
    Map<String, String> env = new HashMap<>(context.environment());
    env.put(ImapKind.USER_ENV, user);
    env.put(ImapKind.PASSWORD_ENV, password);
    return new TargetContext(
        context.bookkeeping(), context.s3(), context.limits(), context.registry(), env);
  }
}
