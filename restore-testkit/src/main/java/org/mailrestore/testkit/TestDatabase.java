package org.mailrestore.testkit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;

/** A database of its own for one test class, on the chosen server; dropped on close. */
public final class TestDatabase implements AutoCloseable {

  /** The connections its pool holds at most. */
  public static final int POOL_SIZE = 8;

  private final MariaDbServer server;
  private final String name;
  private final HikariDataSource dataSource;

  private TestDatabase(MariaDbServer server, String name, HikariDataSource dataSource) {
    this.server = server;
    this.name = name;
    this.dataSource = dataSource;
  }

  static TestDatabase create(MariaDbServer server) {
    String name = "mr_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    execute(server, "CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server.jdbcUrl(name));
    config.setUsername(server.user());
    config.setPassword(server.password());
    config.setMaximumPoolSize(POOL_SIZE);
    config.setPoolName("test-" + name);
    return new TestDatabase(server, name, new HikariDataSource(config));
  }

  private static void execute(MariaDbServer server, String sql) {
    try (Connection c =
            DriverManager.getConnection(server.serverUrl(), server.user(), server.password());
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("on the " + server + ": " + sql + " failed", e);
    }
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /**
   * A connection outside the pool, as another instance of the service has: it neither waits for the
   * pool nor takes a connection the code under test needs.
   */
  public Connection connectionOfItsOwn() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), server.user(), server.password());
  }

  public String name() {
    return name;
  }

  public String jdbcUrl() {
    return server.jdbcUrl(name);
  }

  public MariaDbServer server() {
    return server;
  }

  @Override
  public void close() {
    dataSource.close();
    execute(server, "DROP DATABASE IF EXISTS " + name);
  }
}
