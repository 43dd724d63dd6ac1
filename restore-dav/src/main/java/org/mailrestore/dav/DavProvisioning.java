package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.mailrestore.dav.DavClient.Answer;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Phase 1 on a DAV server: an account is a user's home, the collection its address books and
 * calendars go under. A home that is missing is made ({@code MKCOL}), which a server allows the
 * administrator where it lets it write into users' collections (Radicale's rights file). Domains,
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
    if (!server.client().exists(server.home(name))) {
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
    URI home = server.home(name);
    Answer a = server.client().makeCollection(home);
    if (a.status() == 409) {
      // A home deeper than one level (--dav-home users/{address}/): its parents first.
      for (URI parent : server.between(home)) {
        server.client().makeCollection(parent);
      }
      a = server.client().makeCollection(home);
    }
    if (!a.ok() && a.status() != 405) {
      throw new ProvisioningRefusedException(
          "the DAV server refused to make the home "
              + home
              + " of "
              + name
              + " ("
              + a.status()
              + ": "
              + DavClient.brief(a.body())
              + "): let the administrator write into users' collections (docs/dav-target.md),"
              + " or set --dav-home to where the server keeps them");
    }
    return new ProvisionedAccount(records.account(name), name, name, true);
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos) {
    return existing; // a DAV server keeps no account settings of ours
  }

  @Override
  public void empty(ProvisionedAccount account) throws SQLException, IOException {
    for (DavClient.Collection c : server.client().collections(server.home(account.name()))) {
      Answer a = server.client().delete(c.href());
      if (!a.ok() && a.status() != 404) {
        throw new IOException(
            "the DAV server refused to delete "
                + c.href()
                + " ("
                + a.status()
                + ": "
                + DavClient.brief(a.body())
                + ")");
      }
    }
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
