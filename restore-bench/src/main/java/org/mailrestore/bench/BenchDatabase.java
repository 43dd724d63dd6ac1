package org.mailrestore.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.mailrestore.mailstore.MailstoreSchema;
import org.mailrestore.restore.bookkeeping.EngineSchema;

/** A fresh, migrated database for one benchmark run, dropped on close. */
final class BenchDatabase implements AutoCloseable {

  private final String serverUrl;
  private final String user;
  private final String password;
  private final String name;
  final HikariDataSource dataSource;

  BenchDatabase(String serverUrl, String user, String password, String purpose, int poolSize)
      throws SQLException {
    this.serverUrl = serverUrl;
    this.user = user;
    this.password = password;
    this.name = "mr_bench_" + purpose + "_" + UUID.randomUUID().toString().substring(0, 8);
    execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(databaseUrl());
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(poolSize);
    config.setPoolName(name);
    dataSource = new HikariDataSource(config);
    EngineSchema.migrate(dataSource);
    MailstoreSchema.migrate(dataSource);
  }

  /** The server's URL of a database's URL (its name and options left out). */
  static String serverOf(String databaseUrl) {
    int query = databaseUrl.indexOf('?');
    String base = query < 0 ? databaseUrl : databaseUrl.substring(0, query);
    return base.substring(0, base.indexOf('/', "jdbc:mariadb://".length()) + 1);
  }

  /** The URL of this database, with the options the mailstore relies on. */
  String jdbcUrl() {
    return databaseUrl();
  }

  private String databaseUrl() {
    int query = serverUrl.indexOf('?');
    String base = query < 0 ? serverUrl : serverUrl.substring(0, query);
    if (!base.endsWith("/")) {
      base = base + "/";
    }
    return org.mailrestore.sql.Database.jdbcUrl(base + name);
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(serverUrl, user, password);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  String serverVersion() throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION()")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** A server variable, such as {@code innodb_flush_log_at_trx_commit}. */
  String variable(String name) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@" + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  /**
   * Has the server write its dirty pages out before a measurement, so that it does not pay for the
   * last one's writes: InnoDB is told to keep no dirty page (it then flushes at full speed, where
   * its default pace would take minutes) until fewer than 100 remain or {@code max} passes, then
   * its setting is put back. Without the privilege to change it, only waits.
   */
  static void flushDirtyPages(String serverUrl, String user, String password, Duration max)
      throws SQLException, InterruptedException {
    try (Connection c = DriverManager.getConnection(serverUrl, user, password);
        Statement s = c.createStatement()) {
      String original = null;
      try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.innodb_max_dirty_pages_pct")) {
        rs.next();
        original = rs.getString(1);
        s.execute("SET GLOBAL innodb_max_dirty_pages_pct = 0");
      } catch (SQLException notAllowed) {
        original = null;
      }
      try {
        long deadline = System.nanoTime() + max.toNanos();
        while (dirtyPages(s) > 100 && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
      } finally {
        if (original != null) {
          s.execute("SET GLOBAL innodb_max_dirty_pages_pct = " + Double.parseDouble(original));
        }
      }
    }
  }

  private static long dirtyPages(Statement s) throws SQLException {
    try (ResultSet rs =
        s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) {
      return rs.next() ? rs.getLong(2) : 0;
    }
  }

  @Override
  public void close() throws SQLException {
    dataSource.close();
    execute("DROP DATABASE IF EXISTS " + name);
  }
}
