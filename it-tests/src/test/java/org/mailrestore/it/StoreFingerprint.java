package org.mailrestore.it;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * What a mailstore holds, without the ids a restore hands out: one line per item (account, type,
 * containing folder's name, uuid, date, size, flags, name, subject, blob digest, tag names),
 * sorted. Two restores of one backup must give equal fingerprints however often they were
 * interrupted.
 */
final class StoreFingerprint {

  private StoreFingerprint() {}

  static List<String> of(DataSource dataSource) throws SQLException {
    String sql =
        "SELECT a.name, i.type, COALESCE(f.name, ''), COALESCE(i.uuid, ''),"
            + " IF(i.id < 256, 0, i.date), i.size,"
            + " i.flags, COALESCE(i.name, ''), COALESCE(i.subject, ''),"
            + " COALESCE(HEX(i.blob_digest), ''),"
            + " COALESCE((SELECT GROUP_CONCAT(t.name ORDER BY t.name) FROM tagged_item ti"
            + "   JOIN tag t ON t.mailbox_id = ti.mailbox_id AND t.id = ti.tag_id"
            + "   WHERE ti.mailbox_id = i.mailbox_id AND ti.item_id = i.id), '')"
            + " FROM mail_item i JOIN mailbox m ON m.id = i.mailbox_id"
            + " JOIN account a ON a.id = m.account_id"
            + " LEFT JOIN mail_item f ON f.mailbox_id = i.mailbox_id AND f.id = i.folder_id";
    List<String> lines = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder line = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          line.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        lines.add(line.toString());
      }
    }
    lines.sort(null);
    return lines;
  }

  /** Lines of {@code expected} that {@code actual} lacks, duplicates counted. */
  static List<String> missing(List<String> expected, List<String> actual) {
    List<String> left = new ArrayList<>(expected);
    java.util.Map<String, Integer> have = new java.util.HashMap<>();
    actual.forEach(l -> have.merge(l, 1, Integer::sum));
    left.removeIf(l -> have.merge(l, -1, Integer::sum) >= 0);
    return left;
  }
}
