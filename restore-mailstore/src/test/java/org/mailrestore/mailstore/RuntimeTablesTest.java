package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.restore.bookkeeping.EngineSchema;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.sql.Sql;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * A runtime built on a fresh database has its default target's tables beside the engine's before
 * any restore opens the target (they are migrated at the same time).
 */
class RuntimeTablesTest {

  @TempDir Path dir;

  @Test
  void theDefaultTargetsTablesAreMigratedWithTheEngines() throws Exception {
    try (TestDatabase db = TestMariaDb.createDatabase();
        RestoreRuntime runtime =
            RestoreRuntime.builder()
                .dataSource(db.dataSource())
                .defaultTarget(
                    MailstoreKind.of(VolumeSpec.local("default", dir.resolve("v").toString())))
                .build()) {
      List<String> tables =
          Sql.query(
              db.dataSource(),
              "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()",
              rs -> rs.getString(1));
      assertThat(tables)
          .contains(
              EngineSchema.HISTORY_TABLE,
              MailstoreSchema.HISTORY_TABLE,
              "restore_operation",
              "mail_item");
      assertThat(runtime.target(null).describe()).contains("mailstore");
    }
  }
}
