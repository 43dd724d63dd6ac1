package org.mailrestore.mailstore;

import java.sql.SQLException;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/** Phase 3 writes: grants on folders and where mountpoints point. */
public final class SharesStore {

  private final DataSource dataSource;

  public SharesStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Writes a grant; a grant that exists for the same grantee gets these rights. */
  public void upsertGrant(
      int mailboxId,
      int folderId,
      String granteeType,
      String granteeId,
      String granteeName,
      String rights)
      throws SQLException {
    Sql.update(
        dataSource,
        "INSERT INTO acl (mailbox_id, folder_id, grantee_type, grantee_id, grantee_name, rights)"
            + " VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE rights = VALUES(rights),"
            + " grantee_name = VALUES(grantee_name)",
        mailboxId,
        folderId,
        granteeType,
        granteeId == null ? "" : granteeId,
        granteeName,
        rights);
  }

  /** Points a mountpoint at a folder of another account on this server. */
  public void resolveMount(int mailboxId, int itemId, String ownerUuid, int remoteFolderId)
      throws SQLException {
    Sql.update(
        dataSource,
        "INSERT INTO mountpoint (mailbox_id, item_id, owner_uuid, remote_folder_id)"
            + " VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE owner_uuid = VALUES(owner_uuid),"
            + " remote_folder_id = VALUES(remote_folder_id)",
        mailboxId,
        itemId,
        ownerUuid,
        remoteFolderId);
  }
}
