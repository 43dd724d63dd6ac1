package org.mailrestore.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/** Flyway is skipped only when a set's history holds every one of its scripts, and nothing else. */
class AppliedScriptsTest {

  private static final String LOCATION = "classpath:db/two-scripts-test";
  private static final String HISTORY = "two_scripts_history";
  private static final ClassLoader LOADER = AppliedScriptsTest.class.getClassLoader();

  @Test
  void theScriptsOfADirectoryAreListedByVersion() throws Exception {
    assertThat(AppliedScripts.bundledVersions(LOCATION, LOADER))
        .containsExactlyInAnyOrder("1", "2");
  }

  @Test
  void theScriptsOfEveryJarHoldingTheLocationAreListedAndNothingElseThere(@TempDir Path dir)
      throws Exception {
    Path one =
        jar(
            dir.resolve("one.jar"),
            "db/x/",
            "db/x/V1__first.sql",
            "db/x/V3_1__third.sql",
            "db/x/R__repeatable.sql",
            "db/x/README.txt",
            "db/x/sub/V9__elsewhere.sql",
            "db/xy/V7__another_set.sql");
    Path two = jar(dir.resolve("two.jar"), "db/", "db/x/", "db/x/V4__from_another_jar.sql");
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {one.toUri().toURL(), two.toUri().toURL()}, null)) {
      assertThat(AppliedScripts.bundledVersions("classpath:db/x", loader))
          .containsExactlyInAnyOrder("1", "3.1", "4");
    }
  }

  private static Path jar(Path jar, String... entries) throws Exception {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String name : entries) {
        out.putNextEntry(new JarEntry(name));
        if (!name.endsWith("/")) {
          out.write("SELECT 1;".getBytes(StandardCharsets.UTF_8));
        }
        out.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void aLocationThatCannotBeListedListsNothing() throws Exception {
    assertThat(AppliedScripts.bundledVersions("filesystem:/tmp", LOADER)).isEmpty();
    assertThat(AppliedScripts.bundledVersions("classpath:db/no-such-set", LOADER)).isEmpty();
  }

  @Test
  void onlyAHistoryHoldingEveryScriptSucceededAndNothingNewerIsUpToDate() throws Exception {
    try (TestDatabase db = TestMariaDb.createDatabase()) {
      assertThat(AppliedScripts.upToDate(db.dataSource(), LOCATION, HISTORY))
          .as("no history yet")
          .isFalse();
      Migrations.migrate(db.dataSource(), LOCATION, HISTORY);
      assertThat(AppliedScripts.upToDate(db.dataSource(), LOCATION, HISTORY)).isTrue();

      Sql.update(db.dataSource(), "UPDATE " + HISTORY + " SET success = 0 WHERE version = '2'");
      assertThat(AppliedScripts.upToDate(db.dataSource(), LOCATION, HISTORY))
          .as("a failed script")
          .isFalse();

      Sql.update(db.dataSource(), "DELETE FROM " + HISTORY + " WHERE version = '2'");
      assertThat(AppliedScripts.upToDate(db.dataSource(), LOCATION, HISTORY))
          .as("a script not applied yet")
          .isFalse();

      for (int version = 2; version <= 3; version++) {
        Sql.update(
            db.dataSource(),
            "INSERT INTO "
                + HISTORY
                + " (installed_rank, version, description, type, script, checksum, installed_by,"
                + " execution_time, success) VALUES (?, ?, 'x', 'SQL', 'V.sql', 0, 'test', 0, 1)",
            version + 10,
            String.valueOf(version));
      }
      assertThat(AppliedScripts.upToDate(db.dataSource(), LOCATION, HISTORY))
          .as("a database newer than these scripts")
          .isFalse();
    }
  }

  @Test
  void aNewScriptIsAppliedByFlywayOnAHistoryThatLacksIt() throws Exception {
    try (TestDatabase db = TestMariaDb.createDatabase()) {
      Migrations.migrate(db.dataSource(), LOCATION, HISTORY);
      // As if this build had brought script 2: its row and its column gone.
      Sql.update(db.dataSource(), "DELETE FROM " + HISTORY + " WHERE version = '2'");
      Sql.update(db.dataSource(), "ALTER TABLE first_test DROP COLUMN name");
      try (var again =
          Database.pool(
              db.jdbcUrl(), db.server().user(), db.server().password(), 1, "again", null)) {
        assertThat(Migrations.migrate(again, LOCATION, HISTORY)).isEqualTo(1);
        assertThat(AppliedScripts.upToDate(again, LOCATION, HISTORY)).isTrue();
        assertThat(Migrations.migrate(again, LOCATION, HISTORY)).isZero();
      }
      assertThat(
              Sql.queryOne(
                  db.dataSource(),
                  "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE()"
                      + " AND table_name = 'first_test' AND column_name = 'name'",
                  rs -> rs.getInt(1)))
          .contains(1);
    }
  }
}
