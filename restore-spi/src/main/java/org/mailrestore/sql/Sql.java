package org.mailrestore.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** Small JDBC helpers: transactions and nullable parameters. */
public final class Sql {

  /** Work done on a connection inside a transaction. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Reads one row into a value. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet row) throws SQLException;
  }

  private Sql() {}

  /** Runs one statement with parameters; returns the rows it changed. */
  public static int update(DataSource dataSource, String sql, Object... params)
      throws SQLException {
    return withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            return ps.executeUpdate();
          }
        });
  }

  /** Runs a query with parameters and maps every row. */
  public static <T> List<T> query(
      DataSource dataSource, String sql, RowMapper<T> mapper, Object... params)
      throws SQLException {
    return withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(mapper.map(rs));
              }
            }
            return rows;
          }
        });
  }

  /** The first row of a query, if any. */
  public static <T> Optional<T> queryOne(
      DataSource dataSource, String sql, RowMapper<T> mapper, Object... params)
      throws SQLException {
    List<T> rows = query(dataSource, sql, mapper, params);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  /** Binds parameters by their Java type; null binds SQL NULL. */
  public static void bind(PreparedStatement ps, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      Object p = params[i];
      int index = i + 1;
      switch (p) {
        case null -> ps.setNull(index, Types.NULL);
        case String s -> ps.setString(index, s);
        case Integer n -> ps.setInt(index, n);
        case Long n -> ps.setLong(index, n);
        case Boolean b -> ps.setBoolean(index, b);
        case byte[] bytes -> ps.setBytes(index, bytes);
        default -> ps.setObject(index, p);
      }
    }
  }

  /** An int column that may be NULL. */
  public static Integer nullableInt(ResultSet rs, int column) throws SQLException {
    int v = rs.getInt(column);
    return rs.wasNull() ? null : v;
  }

  /** A long column that may be NULL. */
  public static Long nullableLong(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

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

  /**
   * Reserves {@code n} ids of an account in a target's own account table (a {@code next_id} column,
   * keyed by {@code id}), in the caller's transaction, which holds the row until it ends; returns
   * the first. Targets outside the mailstore number their items per account so.
   */
  public static int reserveIds(Connection c, String accountTable, int accountId, int n)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE " + accountTable + " SET next_id = next_id + ? WHERE id = ?")) {
      bind(ps, n, accountId);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("SELECT next_id FROM " + accountTable + " WHERE id = ?")) {
      bind(ps, accountId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) - n;
      }
    }
  }

  /** The largest IN list sent in one query: longer lists go in chunks of this size. */
  public static final int MAX_IN_LIST = 1000;

  /** The most characters a TEXT column (65,535 bytes) holds whatever they are (4 bytes at most). */
  public static final int TEXT_CHARS = 16_000;

  /**
   * {@code text} cut to {@code maxChars} characters (ending in "...") so that it fits its column,
   * never between the two halves of a character outside the BMP; null stays null.
   */
  public static String clip(String text, int maxChars) {
    if (text == null || text.length() <= maxChars) {
      return text;
    }
    int end = maxChars - 3;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end) + "...";
  }

  /** {@code ?,?,...,?} with {@code n} placeholders. */
  public static String placeholders(int n) {
    StringBuilder sb = new StringBuilder(n * 2);
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "?" : ",?");
    }
    return sb.toString();
  }

  /**
   * An int or SQL NULL. In a batch, prefer columns that are null in all rows or none: MariaDB
   * Connector/J has no typed null for numbers, and its bulk insert starts a new command wherever a
   * non-null value follows a null in the first row of the command (see {@link #setNullableString}).
   */
  public static void setNullableInt(PreparedStatement ps, int index, Integer value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.INTEGER);
    } else {
      ps.setInt(index, value);
    }
  }

  /**
   * A string or SQL NULL, typed as a string either way. MariaDB Connector/J sends a batch as one
   * bulk command for as long as every parameter keeps the type it had in the command's first row,
   * and {@code setNull} has a type of its own: a cluster of items with and without a subject went
   * out as about forty commands instead of one.
   */
  public static void setNullableString(PreparedStatement ps, int index, String value)
      throws SQLException {
    ps.setString(index, value);
  }

  /** Bytes or SQL NULL, typed as bytes either way (see {@link #setNullableString}). */
  public static void setNullableBytes(PreparedStatement ps, int index, byte[] value)
      throws SQLException {
    ps.setBytes(index, value);
  }
}
