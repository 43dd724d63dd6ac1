package org.mailrestore.imap;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.imap.ImapRecords.FolderRow;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;

/**
 * Phase 3 on an IMAP server: grants become ACL entries (RFC 4314 SETACL, set as the folder's owner)
 * where the server announces ACL; grants to a user, or to all authenticated users (the server's
 * identifier for them is an option). Mountpoints have no place in IMAP.
 */
final class ImapShares implements TargetShares {

  private final ImapServer server;
  private final ImapRecords records;
  private final ImapProvisioning provisioning;
  private final String allUsers;

  ImapShares(
      ImapServer server, ImapRecords records, ImapProvisioning provisioning, String allUsers) {
    this.server = server;
    this.records = records;
    this.provisioning = provisioning;
    this.allUsers = allUsers;
  }

  @Override
  public Optional<String> accountId(String id, String name) throws SQLException, IOException {
    if (name == null) {
      return Optional.empty();
    }
    return provisioning.find(name).map(ProvisionedAccount::id);
  }

  @Override
  public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId)
      throws SQLException, IOException {
    String identifier =
        switch (grant.granteeType()) {
          case USER -> granteeId;
          case ALL_AUTHENTICATED -> allUsers;
          default -> null;
        };
    FolderRow row = records.folders(owner.key()).get(folder);
    String rights = AclRights.toImap(grant.rights());
    if (identifier == null || row == null || rights.isEmpty()) {
      return false;
    }
    try (UserSession s = server.open(owner.id())) {
      if (!s.has("ACL")) {
        return false;
      }
      s.ok(Command.of("SETACL").mailbox(row.path()).string(identifier).string(rights));
    }
    return true;
  }

  /**
   * A grant as this server keeps it: users' and all authenticated users' grants, with the rights
   * IMAP has (docs/imap-target.md); nothing for the others.
   */
  static Optional<Grant> kept(Grant grant) {
    boolean held =
        grant.granteeType() == GranteeType.USER
            || grant.granteeType() == GranteeType.ALL_AUTHENTICATED;
    String rights = AclRights.fromImap(AclRights.toImap(grant.rights()));
    if (!held || rights.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Grant(
            grant.folderId(), grant.granteeType(), grant.granteeId(), grant.granteeName(), rights));
  }

  @Override
  public boolean mount(ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder) {
    return false;
  }

  /** The grantee type of an ACL identifier read back. */
  GranteeType typeOf(String identifier) {
    return identifier.equals(allUsers) ? GranteeType.ALL_AUTHENTICATED : GranteeType.USER;
  }
}
