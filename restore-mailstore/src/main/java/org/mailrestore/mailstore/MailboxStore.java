package org.mailrestore.mailstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.mail.ItemType;
import org.mailrestore.sql.Sql;

/**
 * Writes a mailbox's items in clusters, one transaction each (with the engine's journal), with the
 * bulk insert path of MariaDB Connector/J; and answers what a restore asks of a mailbox (its next
 * free id, its folder names, its tags).
 */
public final class MailboxStore {

  /** The largest IN list sent in one query. */
  private static final String INSERT_ITEM =
      "INSERT INTO mail_item (mailbox_id, id, type, folder_id, uuid, date, size, flags, name,"
          + " sender, subject, color, view, blob_digest, volume_id, metadata)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private final DataSource dataSource;

  public MailboxStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** A tag of the mailbox. */
  public record TagRow(int id, String name, Integer color) {}

  /** An item carrying a tag. */
  public record TagLink(int itemId, int tagId) {}

  /**
   * Writes a cluster's rows and the engine's journal of it in one transaction: either everything is
   * there (rows, id map, failures, checkpoint, counters) or nothing is.
   *
   * @throws SQLException when the database fails, or the account's lease was lost to another
   *     instance (the journal checks it): nothing of the cluster is written
   */
  public void write(
      int mailboxId,
      List<ItemRow> items,
      List<TagRow> tags,
      List<TagLink> tagLinks,
      ClusterJournal journal)
      throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          insertItems(c, mailboxId, items);
          insertTags(c, mailboxId, tags);
          insertTagLinks(c, mailboxId, tagLinks);
          journal.writeIn(c);
          return null;
        });
  }

  static void insertItems(Connection c, int mailboxId, List<ItemRow> items) throws SQLException {
    if (items.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(INSERT_ITEM)) {
      for (ItemRow r : items) {
        ps.setInt(1, mailboxId);
        ps.setInt(2, r.id());
        ps.setInt(3, r.type());
        ps.setInt(4, r.folderId());
        Sql.setNullableString(ps, 5, r.uuid());
        ps.setLong(6, r.date());
        ps.setLong(7, r.size());
        ps.setInt(8, r.flags());
        Sql.setNullableString(ps, 9, r.name());
        Sql.setNullableString(ps, 10, r.sender());
        Sql.setNullableString(ps, 11, r.subject());
        Sql.setNullableInt(ps, 12, r.color());
        Sql.setNullableString(ps, 13, r.view());
        Sql.setNullableBytes(ps, 14, r.digest() == null ? null : r.digest().toBytes());
        Sql.setNullableInt(ps, 15, r.volumeId());
        Sql.setNullableString(ps, 16, r.metadata());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void insertTags(Connection c, int mailboxId, List<TagRow> tags)
      throws SQLException {
    if (tags.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO tag (mailbox_id, id, name, color) VALUES (?, ?, ?, ?)")) {
      for (TagRow t : tags) {
        ps.setInt(1, mailboxId);
        ps.setInt(2, t.id());
        ps.setString(3, t.name());
        Sql.setNullableInt(ps, 4, t.color());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void insertTagLinks(Connection c, int mailboxId, List<TagLink> links)
      throws SQLException {
    if (links.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tagged_item (mailbox_id, item_id, tag_id) VALUES (?, ?, ?)")) {
      for (TagLink l : links) {
        ps.setInt(1, mailboxId);
        ps.setInt(2, l.itemId());
        ps.setInt(3, l.tagId());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** The first id no item or tag of the mailbox uses (at least 256). */
  public int nextFreeItemId(int mailboxId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT GREATEST("
                + " COALESCE((SELECT MAX(id) FROM mail_item WHERE mailbox_id = ?), 0),"
                + " COALESCE((SELECT MAX(id) FROM tag WHERE mailbox_id = ?), 0),"
                + " (SELECT item_id_checkpoint FROM mailbox WHERE id = ?), 255) + 1",
            rs -> rs.getInt(1),
            mailboxId,
            mailboxId,
            mailboxId)
        .orElseThrow();
  }

  /** Records the highest id handed out, so later writers to the mailbox start after it. */
  public void raiseItemIdCheckpoint(int mailboxId, int highestId) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE mailbox SET item_id_checkpoint = GREATEST(item_id_checkpoint, ?) WHERE id = ?",
        highestId,
        mailboxId);
  }

  /**
   * The names of the folder-like items (folders, search folders, mountpoints) under each parent,
   * lower-cased: what a new folder's name must not collide with.
   */
  public Map<Integer, Set<String>> folderNamesByParent(int mailboxId) throws SQLException {
    record Named(int parent, String name) {}
    Map<Integer, Set<String>> names = new HashMap<>();
    for (Named n :
        Sql.query(
            dataSource,
            "SELECT folder_id, name FROM mail_item WHERE mailbox_id = ? AND type IN (?, ?, ?)"
                + " AND name IS NOT NULL",
            rs -> new Named(rs.getInt(1), rs.getString(2)),
            mailboxId,
            ItemType.FOLDER.code(),
            ItemType.SEARCH_FOLDER.code(),
            ItemType.MOUNTPOINT.code())) {
      names
          .computeIfAbsent(n.parent(), k -> new HashSet<>())
          .add(n.name().toLowerCase(Locale.ROOT));
    }
    return names;
  }

  /** The mailbox's tags by name. */
  public Map<String, Integer> tags(int mailboxId) throws SQLException {
    Map<String, Integer> tags = new HashMap<>();
    for (TagRow t :
        Sql.query(
            dataSource,
            "SELECT id, name, color FROM tag WHERE mailbox_id = ?",
            rs -> new TagRow(rs.getInt(1), rs.getString(2), Sql.nullableInt(rs, 3)),
            mailboxId)) {
      tags.put(t.name(), t.id());
    }
    return tags;
  }

  /**
   * The id of the tag with this name, creating it (with {@code newId}) when absent; in a
   * transaction of its own, so clusters never race to create the same tag.
   */
  public int ensureTag(int mailboxId, String name, Integer color, int newId) throws SQLException {
    return Sql.inTransaction(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT IGNORE INTO tag (mailbox_id, id, name, color) VALUES (?, ?, ?, ?)")) {
            ps.setInt(1, mailboxId);
            ps.setInt(2, newId);
            ps.setString(3, name);
            Sql.setNullableInt(ps, 4, color);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement("SELECT id FROM tag WHERE mailbox_id = ? AND name = ?")) {
            ps.setInt(1, mailboxId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              return rs.getInt(1);
            }
          }
        });
  }
}
