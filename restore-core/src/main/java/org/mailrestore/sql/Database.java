package org.mailrestore.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;

/** How the project connects to MariaDB: one URL rule, one pool configuration. */
public final class Database {

  /** Connection options restores rely on: the bulk insert path for batches. */
  public static final String JDBC_OPTIONS = "useBulkStmtsForInserts=true";

  private Database() {}

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
