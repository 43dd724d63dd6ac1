package org.mailrestore.mailstore;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** Creates and upgrades the mailstore schema (docs/mailstore.md) with versioned migrations. */
public final class MailstoreSchema {

  /** Where the migrations live on the class path; the Spring application uses the same. */
  public static final String LOCATION = "classpath:db/migration";

  private MailstoreSchema() {}

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
