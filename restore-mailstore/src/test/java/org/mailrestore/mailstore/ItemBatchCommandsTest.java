package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * A cluster's items reach MariaDB as one bulk command, however their nullable columns mix values
 * and nulls: the driver starts a new command wherever a parameter's type changes, and a null bound
 * the wrong way has a type of its own (a cluster of 1,000 mixed items was about forty commands).
 */
class ItemBatchCommandsTest {

  static TestDatabase database;

  @BeforeAll
  static void schema() {
    database = TestMariaDb.createDatabase();
    MailstoreSchema.migrate(database.dataSource());
  }

  @AfterAll
  static void drop() {
    database.close();
  }

  @Test
  void itemsWithAndWithoutNullableValuesGoAsOneCommandAndKeepTheirNulls() throws SQLException {
    List<ItemRow> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      // Every nullable text and bytes column null in even rows and set in odd ones, starting null.
      boolean set = i % 2 == 1;
      rows.add(
          new ItemRow(
              1000 + i,
              5,
              2,
              set ? "uuid-" + i : null,
              1_700_000_000_000L + i,
              set ? 10 : 0,
              0,
              set ? "name-" + i : null,
              set ? "a@example.org" : null,
              set ? "subject " + i : null,
              null,
              set ? "message" : null,
              set ? BlobDigest.ofContent(("m" + i).getBytes(StandardCharsets.UTF_8)) : null,
              null,
              set ? "{}" : null));
    }
    try (Connection c = database.dataSource().getConnection()) {
      long before = sessionExecutes(c);
      MailboxStore.insertItems(c, 7, rows);
      assertThat(sessionExecutes(c) - before).as("bulk commands sent").isEqualTo(1);
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT COUNT(*), COUNT(uuid), COUNT(name), COUNT(sender), COUNT(subject),"
                      + " COUNT(view), COUNT(blob_digest), COUNT(metadata)"
                      + " FROM mail_item WHERE mailbox_id = 7")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(200);
        for (int column = 2; column <= 8; column++) {
          assertThat(rs.getInt(column)).as("non-null values in column %d", column).isEqualTo(100);
        }
      }
    }
  }

  private static long sessionExecutes(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Com_stmt_execute'")) {
      rs.next();
      return rs.getLong(2);
    }
  }
}
