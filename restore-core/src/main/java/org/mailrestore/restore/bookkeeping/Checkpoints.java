package org.mailrestore.restore.bookkeeping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/**
 * Which clusters of an account an operation has committed (a resumed account skips them), and, for
 * targets whose writes do not commit with the bookkeeping, which clusters were started: one started
 * but not committed was in flight at a crash and is written again in doubt.
 */
public final class Checkpoints {

  private final DataSource dataSource;

  public Checkpoints(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The clusters of an account this operation has committed. */
  public Set<Integer> committed(String operationId, String sourceAccountId) throws SQLException {
    return new HashSet<>(
        Sql.query(
            dataSource,
            "SELECT seq FROM restore_cluster WHERE operation_id = ? AND source_account_id = ?",
            rs -> rs.getInt(1),
            operationId,
            sourceAccountId));
  }

  /** Whether one cluster is committed: what a retry asks after a commit whose answer was lost. */
  public boolean isCommitted(String operationId, String sourceAccountId, int seq)
      throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT 1 FROM restore_cluster WHERE operation_id = ? AND source_account_id = ?"
                + " AND seq = ?",
            rs -> true,
            operationId,
            sourceAccountId,
            seq)
        .orElse(false);
  }

  /** Records that a cluster's writes start (targets without atomic commits). */
  public void started(String operationId, String sourceAccountId, int seq) throws SQLException {
    Sql.update(
        dataSource,
        "INSERT IGNORE INTO restore_cluster_intent (operation_id, source_account_id, seq)"
            + " VALUES (?, ?, ?)",
        operationId,
        sourceAccountId,
        seq);
  }

  /** The clusters started but never committed: in flight when a run stopped. */
  public Set<Integer> inDoubt(String operationId, String sourceAccountId) throws SQLException {
    return new HashSet<>(
        Sql.query(
            dataSource,
            "SELECT i.seq FROM restore_cluster_intent i LEFT JOIN restore_cluster c"
                + " ON c.operation_id = i.operation_id"
                + " AND c.source_account_id = i.source_account_id AND c.seq = i.seq"
                + " WHERE i.operation_id = ? AND i.source_account_id = ? AND c.seq IS NULL",
            rs -> rs.getInt(1),
            operationId,
            sourceAccountId));
  }

  static void commit(Connection c, String operationId, String sourceAccountId, int seq, int items)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO restore_cluster (operation_id, source_account_id, seq, items)"
                + " VALUES (?, ?, ?, ?)")) {
      Sql.bind(ps, operationId, sourceAccountId, seq, items);
      ps.executeUpdate();
    }
  }
}
