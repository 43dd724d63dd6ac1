package org.mailrestore.restore.bookkeeping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Renews every lease of an instance (operations it coordinates, accounts it restores) on a
 * connection of its own, kept from one beat to the next (decision 0052). A renewal then never waits
 * for a connection of the pool, which clusters waiting on locks can all hold: another instance
 * paused inside its commits holds such locks for as long as it is paused, and leases lapsed behind
 * that wait let a third writer in. It reads committed rows only and gives up on a lock after one
 * beat, and on the network after one lease, so neither a row another instance has locked nor a
 * connection cut off holds it for long; the next beat tries again.
 */
public final class LeaseRenewer implements AutoCloseable {

  private final @Nullable DataSource dataSource;
  private @Nullable Connection connection;

  LeaseRenewer(@Nullable DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Extends the leases {@code owner} holds by {@code leaseSeconds} from now, by the database's
   * clock; returns the accounts it holds after it (any other it thought it held was taken over).
   */
  public synchronized Set<HeldAccount> renew(String owner, int leaseSeconds) throws SQLException {
    Connection c = connection(leaseSeconds);
    try {
      // The coordination first, committed alone: the operation's row, which every instance
      // updates, is never held locked while the accounts are renewed.
      extend(
          c,
          "UPDATE restore_operation SET coordinator_until = NOW(3) + INTERVAL ? SECOND"
              + " WHERE coordinator = ?",
          leaseSeconds,
          owner);
      c.commit();
      extend(
          c,
          "UPDATE restore_account SET lease_until = NOW(3) + INTERVAL ? SECOND"
              + " WHERE lease_owner = ?",
          leaseSeconds,
          owner);
      Set<HeldAccount> held = new HashSet<>();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT operation_id, source_account_id FROM restore_account WHERE lease_owner = ?")) {
        ps.setString(1, owner);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            held.add(new HeldAccount(rs.getString(1), rs.getString(2)));
          }
        }
      }
      c.commit();
      return held;
    } catch (SQLException | RuntimeException e) {
      // A broken or refused session is given back; the next beat takes another.
      close();
      throw e;
    }
  }

  /** Runs one renewal: {@code sql} takes the lease's seconds, then the owner. */
  private static void extend(Connection c, String sql, int leaseSeconds, String owner)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, leaseSeconds);
      ps.setString(2, owner);
      ps.executeUpdate();
    }
  }

  private Connection connection(int leaseSeconds) throws SQLException {
    if (connection != null) {
      return connection;
    }
    if (dataSource == null) {
      throw new SQLException("no database to renew leases in");
    }
    Connection c = dataSource.getConnection();
    try {
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      // A renewal that outlasts a lease is worth nothing: on a connection cut off without a word
      // (a network partition), it gives up then, and a later beat takes another connection.
      c.setNetworkTimeout(Runnable::run, leaseSeconds * 1000);
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION innodb_lock_wait_timeout = " + Math.max(1, leaseSeconds / 3));
      }
      c.setAutoCommit(false);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    connection = c;
    return c;
  }

  /** Gives the connection back to the pool, rolled back and with the server's lock wait again. */
  @Override
  public synchronized void close() {
    if (connection == null) {
      return;
    }
    try {
      connection.rollback();
      // The pool resets isolation and auto-commit, not session variables: a cluster's commit on
      // this connection later must wait for locks as long as any other.
      try (Statement s = connection.createStatement()) {
        s.execute("SET SESSION innodb_lock_wait_timeout = DEFAULT");
      }
    } catch (SQLException e) {
      // Broken: the pool discards it.
    }
    try {
      connection.close();
    } catch (SQLException e) {
      // Nothing more to give back.
    }
    connection = null;
  }
}
