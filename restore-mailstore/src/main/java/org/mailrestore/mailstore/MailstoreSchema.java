package org.mailrestore.mailstore;

import javax.sql.DataSource;
import org.mailrestore.sql.Migrations;

/**
 * Creates and upgrades the mailstore's tables (docs/mailstore.md) with versioned migrations of
 * their own, beside the engine's (which {@code EngineSchema} migrates). A database that holds these
 * tables from before they had their own history is taken as it is: the first migration creates only
 * what is missing.
 */
public final class MailstoreSchema {

  public static final String LOCATION = "classpath:db/mailstore";
  public static final String HISTORY_TABLE = "mailstore_schema_history";

  private MailstoreSchema() {}

  /** Applies the migrations the database does not have yet; returns how many were applied. */
  public static int migrate(DataSource dataSource) {
    return Migrations.migrate(dataSource, LOCATION, HISTORY_TABLE);
  }
}
