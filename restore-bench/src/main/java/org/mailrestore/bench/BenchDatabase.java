package org.mailrestore.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.mailrestore.mailstore.MailstoreSchema;

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
    MailstoreSchema.migrate(dataSource);
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
    return org.mailrestore.mailstore.MailstoreSchema.jdbcUrl(base + name);
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

  /** Pages of the server's buffer pool not yet written to disk. */
  static long dirtyPages(String serverUrl, String user, String password) throws SQLException {
    try (Connection c = DriverManager.getConnection(serverUrl, user, password);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) {
      return rs.next() ? rs.getLong(2) : 0;
    }
  }

  @Override
  public void close() throws SQLException {
    dataSource.close();
    execute("DROP DATABASE IF EXISTS " + name);
  }
}
