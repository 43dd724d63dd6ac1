package org.mailrestore.dav;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;

/**
 * Phase 3 on a DAV server: a grant to a user on an address book or a calendar is written where the
 * server's homes hold grants (Cyrus: an ACL entry, decision 0051). Everything else is answered "not
 * carried", and the engine reports it per grant: grants on a server that holds none (Radicale),
 * grants to groups, domains, guests and everyone, grants on folders that are no collection, and
 * mountpoints.
 */
final class DavShares implements TargetShares {

  private final DavServer server;
  private final DavRecords records;
  private final DavProvisioning provisioning;

  DavShares(DavServer server, DavRecords records, DavProvisioning provisioning) {
    this.server = server;
    this.records = records;
    this.provisioning = provisioning;
  }

  @Override
  public Optional<String> accountId(String id, String name) throws SQLException, IOException {
    return name == null ? Optional.empty() : provisioning.find(name).map(ProvisionedAccount::id);
  }

  @Override
  public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId)
      throws SQLException, IOException {
    Optional<CollectionRow> row = collection(records, owner, folder);
    if (grant.granteeType() != GranteeType.USER || row.isEmpty() || !server.homes().holdsGrants()) {
      return false;
    }
    return server.homes().grant(owner.name(), row.get(), granteeId, grant.rights());
  }

  /** A folder's collection, when the folder is one (not a folder of mail recorded as a parent). */
  static Optional<CollectionRow> collection(
      DavRecords records, ProvisionedAccount owner, int folder) throws SQLException {
    CollectionRow row = records.collections(owner.key()).get(folder);
    return row == null || row.kind() == CollectionKind.NONE ? Optional.empty() : Optional.of(row);
  }

  @Override
  public boolean mount(ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder) {
    return false;
  }
}
