package org.mailrestore.restore.bookkeeping;

import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/**
 * Who runs what: the coordinator's lease on an operation, the heartbeat that renews every lease of
 * an instance, and the operations nobody runs or helps with now.
 */
public final class LeaseStore {

  private final DataSource dataSource;

  public LeaseStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Makes this instance the operation's coordinator (it runs the phases): succeeds when nobody
   * coordinates it, this instance already does, or the coordinator's lease expired.
   */
  public boolean claimCoordination(String operationId, String owner, int leaseSeconds)
      throws SQLException {
    return Sql.update(
            dataSource,
            "UPDATE restore_operation SET coordinator = ?,"
                + " coordinator_until = NOW(3) + INTERVAL ? SECOND WHERE id = ?"
                + " AND (coordinator IS NULL OR coordinator = ? OR coordinator_until < NOW(3))",
            owner,
            leaseSeconds,
            operationId,
            owner)
        == 1;
  }

  /** Whether a live instance (its lease not expired) coordinates the operation now. */
  public boolean hasLiveCoordinator(String operationId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT coordinator IS NOT NULL AND coordinator_until >= NOW(3)"
                + " FROM restore_operation WHERE id = ?",
            rs -> rs.getBoolean(1),
            operationId)
        .orElse(false);
  }

  public void releaseCoordination(String operationId, String owner) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET coordinator = NULL, coordinator_until = NULL"
            + " WHERE id = ? AND coordinator = ?",
        operationId,
        owner);
  }

  /** A renewer of this instance's leases, with a connection of its own once it has renewed. */
  public LeaseRenewer renewer() {
    return new LeaseRenewer(dataSource);
  }

  /**
   * Operations that should be running but have no live coordinator: interrupted by a crash or a
   * shutdown, or waiting out the delay after a database error. Oldest first.
   */
  public List<String> orphaned() throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT id FROM restore_operation WHERE state IN ('QUEUED', 'RUNNING')"
            + " AND cancel_requested = FALSE AND (retry_after IS NULL OR retry_after <= NOW(3))"
            + " AND (coordinator IS NULL OR coordinator_until < NOW(3)) ORDER BY created_at",
        rs -> rs.getString(1));
  }

  /** Running operations in phase 2 with accounts nobody holds: where another instance can help. */
  public List<String> needingHelp() throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT DISTINCT o.id FROM restore_operation o JOIN restore_account a"
            + " ON a.operation_id = o.id WHERE o.state = 'RUNNING' AND o.phase = 'DATA'"
            + " AND o.cancel_requested = FALSE AND a.finished_at IS NULL"
            + " AND a.state IN ('PROVISIONED', 'RESTORING', 'SKIPPED')"
            + " AND (a.lease_owner IS NULL OR a.lease_until < NOW(3))",
        rs -> rs.getString(1));
  }
}
