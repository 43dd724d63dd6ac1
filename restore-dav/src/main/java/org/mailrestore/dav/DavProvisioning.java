package org.mailrestore.dav;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Phase 1 on a DAV server: an account is a user's home, the collection its address books and
 * calendars go under. A home that is missing is made ({@code MKCOL}), which a server allows the
 * administrator where it lets it write into users' collections (see {@link DavHomes}). Domains,
 * classes of service, lists and aliases have no place in DAV: the engine reports them as not
 * carried.
 */
final class DavProvisioning implements TargetProvisioning {

  private final DavServer server;
  private final DavRecords records;

  DavProvisioning(DavServer server, DavRecords records) {
    this.server = server;
    this.records = records;
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
    if (!server.homes().exists(name)) {
      return Optional.empty();
    }
    return Optional.of(new ProvisionedAccount(records.account(name), name, name, false));
  }

  @Override
  public boolean idInUse(String id) {
    return false; // the target names accounts by their address; it never takes the backup's id
  }

  @Override
  public ProvisionedAccount create(Account account, String name, String id, boolean withCos)
      throws SQLException, IOException {
    server.homes().make(name);
    return new ProvisionedAccount(records.account(name), name, name, true);
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos) {
    return existing; // a DAV server keeps no account settings of ours
  }

  @Override
  public void empty(ProvisionedAccount account) throws SQLException, IOException {
    server.homes().empty(account.name());
    records.forget(account.key());
  }

  @Override
  public List<String> addAliases(ProvisionedAccount account, List<String> aliases) {
    throw new UnsupportedOperationException("a DAV server holds no aliases");
  }

  @Override
  public boolean holdsAliases() {
    return false;
  }
}
