package org.mailrestore.imap;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Phase 1 on an IMAP server: accounts are logins. With {@code --provision none} they must exist
 * (each is checked by logging in as it); with {@code sql} a missing one is inserted into the user
 * table the server reads ({@link SqlUsers}). Domains, classes of service, lists and aliases have no
 * place in IMAP: the engine reports them as not carried.
 */
final class ImapProvisioning implements TargetProvisioning {

  private final ImapServer server;
  private final ImapRecords records;
  private final SqlUsers users;

  /**
   * @param users the user table to create accounts in, or null ({@code --provision none})
   */
  ImapProvisioning(ImapServer server, ImapRecords records, SqlUsers users) {
    this.server = server;
    this.records = records;
    this.users = users;
  }

  @Override
  public boolean ensureDomain(Domain domain) {
    return false;
  }

  @Override
  public boolean ensureClassOfService(ClassOfService cos) {
    return false;
  }

  @Override
  public boolean ensureList(DistributionList list) {
    return false;
  }

  @Override
  public Optional<ProvisionedAccount> find(String name) throws SQLException, IOException {
    if (users != null && !users.exists(name)) {
      return Optional.empty();
    }
    if (!logsIn(name)) {
      return Optional.empty();
    }
    return Optional.of(new ProvisionedAccount(records.account(name), name, name, false));
  }

  /**
   * Whether the admin can act as the user and the user has an INBOX. The session is kept for phase
   * 2, which logs in as the user next.
   */
  boolean logsIn(String name) throws IOException {
    UserSession s;
    try {
      s = server.session(name); // one kept idle a moment ago proves the login as well
    } catch (ImapException e) {
      return refused(e);
    }
    boolean inbox = false;
    try {
      for (Response r : s.ok(Command.of("LIST").string("").string("INBOX")).untagged()) {
        inbox |= r.is("LIST");
      }
    } catch (ImapException e) {
      s.close();
      return refused(e);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    if (inbox) {
      server.keep(s);
    } else {
      s.close();
    }
    return inbox;
  }

  private static boolean refused(ImapException e) throws ImapException {
    if (e.isTransient()) {
      throw e; // the server could not check (its user database is down, say): not a "no"
    }
    return false; // the server refused the login: no such user (or no right to act for it)
  }

  @Override
  public boolean idInUse(String id) {
    return false; // the target names accounts by their login; it never takes the backup's id
  }

  @Override
  public ProvisionedAccount create(Account account, String name, String id, boolean withCos)
      throws SQLException, IOException {
    if (users == null) {
      throw new ProvisioningRefusedException(
          "the account "
              + name
              + " does not exist on "
              + server.describe()
              + " (or the admin may not act for it): create it there, or restore with"
              + " --provision sql");
    }
    users.create(name);
    if (!logsIn(name)) {
      throw new ProvisioningRefusedException(
          "created "
              + name
              + " in "
              + users.describe()
              + ", but "
              + server.describe()
              + " does not let the admin log in as it: does the server read that table?");
    }
    return new ProvisionedAccount(records.account(name), name, name, true);
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos) {
    return existing; // an IMAP server keeps no account settings of ours
  }

  @Override
  public void empty(ProvisionedAccount account) throws SQLException, IOException {
    try (UserSession s = server.open(account.id())) {
      MailboxEraser.empty(s);
    }
    records.forget(account.key());
  }

  @Override
  public List<String> addAliases(ProvisionedAccount account, List<String> aliases) {
    throw new UnsupportedOperationException("an IMAP server holds no aliases");
  }

  @Override
  public boolean holdsAliases() {
    return false;
  }
}
