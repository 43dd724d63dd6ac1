package org.mailrestore.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How the project connects to MariaDB: one URL rule, one pool configuration. */
public final class Database {

  /** Connection options restores rely on: the bulk insert path for batches. */
  public static final String JDBC_OPTIONS = "useBulkStmtsForInserts=true";

  private static final Logger log = LoggerFactory.getLogger(Database.class);

  private Database() {}

  /**
   * Creates the URL's database when the server does not have it, so that a restore into a new
   * mailstore needs no step by hand. A server that cannot be reached is left to the pool to report;
   * a database that cannot be created is an error that says what an administrator must run.
   *
   * @return whether the database was created
   */
  public static boolean createIfMissing(String url, String user, String password) {
    Optional<String> name = databaseName(url);
    if (name.isEmpty()) {
      return false;
    }
    Connection server;
    try {
      server = DriverManager.getConnection(serverUrl(url), user, password);
    } catch (SQLException unreachable) {
      return false; // the pool's own error (host, port, credentials) is the clearer one
    }
    try (server) {
      try (PreparedStatement exists =
          server.prepareStatement(
              "SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
        exists.setString(1, name.get());
        try (ResultSet rs = exists.executeQuery()) {
          if (rs.next()) {
            return false;
          }
        }
      }
      try (Statement create = server.createStatement()) {
        create.execute(
            "CREATE DATABASE IF NOT EXISTS "
                + quoted(name.get())
                + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
      }
      log.info("created the database {} (it did not exist)", name.get());
      return true;
    } catch (SQLException e) {
      throw new IllegalStateException(
          "the database "
              + name.get()
              + " does not exist and user "
              + user
              + " may not create it ("
              + e.getMessage()
              + "). As an administrator, run: CREATE DATABASE "
              + quoted(name.get())
              + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin; GRANT ALL PRIVILEGES ON "
              + quoted(name.get())
              + ".* TO '"
              + user
              + "'@'%';",
          e);
    }
  }

  /** The database a MariaDB JDBC URL names ({@code jdbc:mariadb://host:port/NAME?options}). */
  static Optional<String> databaseName(String url) {
    int hosts = url.indexOf("//");
    if (hosts < 0) {
      return Optional.empty();
    }
    int slash = url.indexOf('/', hosts + 2);
    if (slash < 0) {
      return Optional.empty();
    }
    int end = url.indexOf('?', slash);
    String name = url.substring(slash + 1, end < 0 ? url.length() : end);
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }

  /** The same URL without its database: a connection to the server alone. */
  static String serverUrl(String url) {
    int slash = url.indexOf('/', url.indexOf("//") + 2);
    int end = url.indexOf('?', slash);
    return url.substring(0, slash + 1) + (end < 0 ? "" : url.substring(end));
  }

  private static String quoted(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }

  /**
   * The JDBC URL with the options restores rely on ({@code useBulkStmtsForInserts=true}, the
   * default of Connector/J 3.5, stated so a change of default cannot slow restores down).
   */
  public static String jdbcUrl(String url) {
    if (url.contains("useBulkStmtsForInserts")) {
      return url;
    }
    return url + (url.contains("?") ? "&" : "?") + JDBC_OPTIONS;
  }

  /**
   * A pool.
   *
   * @param registry receives the pool's meters ({@code hikaricp.*}), or null for none
   */
  public static HikariDataSource pool(
      String url, String user, String password, int size, String name, MeterRegistry registry) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl(url));
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    config.setPoolName(name);
    if (registry != null) {
      config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    }
    return new HikariDataSource(config);
  }
}
