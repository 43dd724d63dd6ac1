package org.mailrestore.restore.bookkeeping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.sql.Sql;

/**
 * The failures (and repairs) of operations. A failure reported again by a resumed run is the same
 * failure, recorded once.
 */
public final class FailureStore {

  private final DataSource dataSource;

  public FailureStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Records failures outside any cluster (provisioning, account-level, shares). */
  public void record(String operationId, List<FailureRow> failures) throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          insert(c, operationId, failures);
          return null;
        });
  }

  static void insert(Connection c, String operationId, List<FailureRow> failures)
      throws SQLException {
    if (failures.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT IGNORE INTO restore_failure (operation_id, source_account_id, item_id, phase,"
                + " severity, reason, location, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (FailureRow f : failures) {
        ps.setString(1, operationId);
        ps.setString(2, f.sourceAccountId());
        ps.setInt(3, f.itemId());
        ps.setString(4, f.phase());
        ps.setString(5, f.severity().name().toLowerCase(Locale.ROOT));
        ps.setString(6, f.reason());
        ps.setString(7, f.location());
        ps.setString(8, f.detail());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** Failures of severity error recorded for one account of an operation. */
  public long errorCount(String operationId, String sourceAccountId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT COUNT(*) FROM restore_failure WHERE operation_id = ?"
                + " AND source_account_id = ? AND severity = 'error'",
            rs -> rs.getLong(1),
            operationId,
            sourceAccountId)
        .orElse(0L);
  }

  public List<FailureRecord> list(String operationId, int offset, int limit) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT id, source_account_id, item_id, phase, severity, reason, location, detail,"
            + " created_at FROM restore_failure WHERE operation_id = ? ORDER BY id LIMIT ? OFFSET ?",
        rs ->
            new FailureRecord(
                rs.getLong(1),
                rs.getString(2),
                rs.getInt(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                OperationStore.instant(rs.getTimestamp(9))),
        operationId,
        limit,
        offset);
  }
}
