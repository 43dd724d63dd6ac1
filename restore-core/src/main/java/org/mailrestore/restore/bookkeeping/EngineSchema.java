package org.mailrestore.restore.bookkeeping;

import javax.sql.DataSource;
import org.mailrestore.sql.Migrations;

/**
 * Creates and upgrades the engine's bookkeeping tables (docs/mailstore.md, "Restore bookkeeping")
 * with versioned migrations of their own, whatever the target. A database that holds these tables
 * from before they had their own history is taken as it is: the first migration creates only what
 * is missing.
 */
public final class EngineSchema {

  public static final String LOCATION = "classpath:db/engine";
  public static final String HISTORY_TABLE = "engine_schema_history";

  private EngineSchema() {}

  /** Applies the migrations the database does not have yet; returns how many were applied. */
  public static int migrate(DataSource dataSource) {
    return Migrations.migrate(dataSource, LOCATION, HISTORY_TABLE);
  }
}
