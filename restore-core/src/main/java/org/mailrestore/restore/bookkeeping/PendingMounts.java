package org.mailrestore.restore.bookkeeping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/** Mountpoints restored in phase 2, waiting for phase 3 to point them at the new ids. */
public final class PendingMounts {

  /**
   * A mountpoint restored in phase 2, still pointing at source ids.
   *
   * @param itemId the mountpoint's id in the target
   */
  public record PendingMount(
      int targetKey, int itemId, int sourceItemId, String sourceOwnerId, int sourceFolderId) {}

  private final DataSource dataSource;

  public PendingMounts(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public List<PendingMount> list(String operationId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT target_key, item_id, source_item_id, source_owner_id, source_folder_id"
            + " FROM restore_mount WHERE operation_id = ? ORDER BY target_key, item_id",
        rs ->
            new PendingMount(
                rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getInt(5)),
        operationId);
  }

  static void insert(Connection c, String operationId, List<PendingMount> mounts)
      throws SQLException {
    if (mounts.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO restore_mount (operation_id, target_key, item_id, source_item_id,"
                + " source_owner_id, source_folder_id) VALUES (?, ?, ?, ?, ?, ?)")) {
      for (PendingMount m : mounts) {
        Sql.bind(
            ps,
            operationId,
            m.targetKey(),
            m.itemId(),
            m.sourceItemId(),
            m.sourceOwnerId(),
            m.sourceFolderId());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }
}
