package org.mailrestore.imap;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.testkit.CyrusServer;
import org.mailrestore.testkit.DovecotServer;

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

  /** Dovecot with accounts that exist already, the master user as {@code user*master}. */
  @Nested
  class DovecotExistingAccountsSeparator extends OnAServerThatOutlivesTheTest {
    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      DovecotServer dovecot = dovecot();
      for (String user : MailTargetContract.USERS) {
        dovecot.addUser(user + "@" + domain());
      }
      return TargetSpec.of(
              ImapKind.NAME,
              dovecot.url(),
              Map.of(ImapKind.STARTTLS, "never", ImapKind.LOGIN, "separator"))
          .open(withAdmin(context, DovecotServer.MASTER, DovecotServer.MASTER_PASSWORD));
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
