package org.mailrestore.mailstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import javax.sql.DataSource;

/** Small JDBC helpers: transactions and nullable parameters. */
public final class Sql {

  /** Work done on a connection inside a transaction. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private Sql() {}

  /**
   * Runs {@code work} in one transaction: committed when it returns, rolled back when it throws.
   */
  public static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c, e);
        throw e;
      } finally {
        restoreAutoCommit(c, autoCommit);
      }
    }
  }

  /** Runs {@code work} on a connection in auto-commit mode. */
  public static <T> T withConnection(DataSource dataSource, Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return work.run(c);
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static void restoreAutoCommit(Connection c, boolean autoCommit) {
    try {
      c.setAutoCommit(autoCommit);
    } catch (SQLException e) {
      // A broken connection is discarded by the pool; nothing to restore.
    }
  }

  /** {@code ?,?,...,?} with {@code n} placeholders. */
  public static String placeholders(int n) {
    StringBuilder sb = new StringBuilder(n * 2);
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "?" : ",?");
    }
    return sb.toString();
  }

  public static void setNullableInt(PreparedStatement ps, int index, Integer value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.INTEGER);
    } else {
      ps.setInt(index, value);
    }
  }

  public static void setNullableString(PreparedStatement ps, int index, String value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.VARCHAR);
    } else {
      ps.setString(index, value);
    }
  }
}
