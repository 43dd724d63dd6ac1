package org.mailrestore.restore;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** What a test store holds, independent of the ids the restore gave. */
final class StoreContents {

  private StoreContents() {}

  /**
   * One line per user item of the store's ordinary accounts: account, uuid, type, containing folder
   * (by uuid, or system id), name, flag bits, subject, digest. Ids are left out, so two stores
   * restored differently compare equal when they hold the same.
   */
  static TreeSet<String> items(RestoreFixture f) throws Exception {
    TreeSet<String> lines = new TreeSet<>();
    try (Connection c = f.database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT a.name, COALESCE(i.uuid, ''), i.type,"
                    + " IF(i.folder_id < 256, CONCAT('sys:', i.folder_id), COALESCE(p.uuid,"
                    + " CONCAT('missing:', i.folder_id))), COALESCE(i.name, ''), i.flags,"
                    + " COALESCE(i.subject, ''), COALESCE(LOWER(HEX(i.blob_digest)), '')"
                    + " FROM mail_item i JOIN mailbox m ON m.id = i.mailbox_id"
                    + " JOIN account a ON a.id = m.account_id"
                    + " LEFT JOIN mail_item p ON p.mailbox_id = i.mailbox_id AND p.id = i.folder_id"
                    + " WHERE i.id >= 256 AND a.is_system = FALSE")) {
      while (rs.next()) {
        List<String> fields = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
          fields.add(rs.getString(i));
        }
        lines.add(String.join("|", fields));
      }
    }
    return lines;
  }

  /** One line per tagged item: account, item uuid, tag name. */
  static TreeSet<String> tags(RestoreFixture f) throws Exception {
    TreeSet<String> lines = new TreeSet<>();
    try (Connection c = f.database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT a.name, i.uuid, t.name FROM tagged_item ti"
                    + " JOIN tag t ON t.mailbox_id = ti.mailbox_id AND t.id = ti.tag_id"
                    + " JOIN mail_item i ON i.mailbox_id = ti.mailbox_id AND i.id = ti.item_id"
                    + " JOIN mailbox m ON m.id = ti.mailbox_id"
                    + " JOIN account a ON a.id = m.account_id")) {
      while (rs.next()) {
        lines.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
      }
    }
    return lines;
  }
}
