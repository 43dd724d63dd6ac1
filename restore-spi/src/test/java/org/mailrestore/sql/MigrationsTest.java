package org.mailrestore.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.flywaydb.core.api.FlywayException;
import org.junit.jupiter.api.Test;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/** Migrations run once per pool; a failed run is tried again, not taken for done. */
class MigrationsTest {

  private static final String LOCATION = "classpath:db/two-scripts-test";
  private static final String HISTORY = "two_scripts_history";

  private static long historyRows(TestDatabase db, String table) throws Exception {
    return Sql.queryOne(
            db.dataSource(),
            "SELECT COUNT(*) FROM " + table + " WHERE success = 1",
            rs -> rs.getLong(1))
        .orElseThrow();
  }

  @Test
  void aSetIsMigratedOncePerPool() throws Exception {
    try (TestDatabase db = TestMariaDb.createDatabase()) {
      int applied = Migrations.migrate(db.dataSource(), LOCATION, HISTORY);
      assertThat(applied).isEqualTo(2);
      assertThat(historyRows(db, HISTORY)).isEqualTo(applied);
      assertThat(Migrations.migrate(db.dataSource(), LOCATION, HISTORY)).isZero();
      assertThat(historyRows(db, HISTORY)).isEqualTo(applied);
    }
  }

  @Test
  void aFailedRunIsTriedAgainAndFailsAgain() throws Exception {
    try (TestDatabase db = TestMariaDb.createDatabase()) {
      assertThatThrownBy(() ->
              Migrations.migrate(
                  db.dataSource(), "classpath:db/broken-test", "broken_schema_history"))
          .isInstanceOf(FlywayException.class)
          .hasMessageContaining("V1__broken.sql");
      // Run again (not the first failure remembered): Flyway now finds the failed script.
      assertThatThrownBy(() ->
              Migrations.migrate(
                  db.dataSource(), "classpath:db/broken-test", "broken_schema_history"))
          .isInstanceOf(FlywayException.class)
          .hasMessageContaining("failed migration to version 1");
    }
  }
}
