package org.mailrestore.mailstore;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** Creates and upgrades the mailstore schema (docs/mailstore.md) with versioned migrations. */
public final class MailstoreSchema {

  /** Where the migrations live on the class path; the Spring application uses the same. */
  public static final String LOCATION = "classpath:db/migration";

  /** Connection options the mailstore relies on: the bulk insert path for batches. */
  public static final String JDBC_OPTIONS = "useBulkStmtsForInserts=true";

  private MailstoreSchema() {}

  /**
   * The JDBC URL with the options the mailstore relies on ({@code useBulkStmtsForInserts=true}, the
   * default of Connector/J 3.5, stated so a change of default cannot slow restores down).
   */
  public static String jdbcUrl(String url) {
    if (url.contains("useBulkStmtsForInserts")) {
      return url;
    }
    return url + (url.contains("?") ? "&" : "?") + JDBC_OPTIONS;
  }

  /** Applies the migrations the database does not have yet; returns how many were applied. */
  public static int migrate(DataSource dataSource) {
    return Flyway.configure()
        .dataSource(dataSource)
        .locations(LOCATION)
        .load()
        .migrate()
        .migrationsExecuted;
  }
}
