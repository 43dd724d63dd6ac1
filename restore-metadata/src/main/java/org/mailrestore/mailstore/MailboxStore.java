package org.mailrestore.mailstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mailstore.ClusterWrite.IdMapping;
import org.mailrestore.mailstore.ClusterWrite.MountRow;
import org.mailrestore.mailstore.ClusterWrite.TagLink;
import org.mailrestore.mailstore.ClusterWrite.TagRow;

/**
 * Writes a mailbox's items in clusters, one transaction each, with the bulk insert path of MariaDB
 * Connector/J; and answers the keyed lookups a restore needs (which backup ids are already
 * restored, which clusters are committed).
 */
public final class MailboxStore {

  /** The largest IN list sent in one query. */
  static final int MAX_IN_LIST = 1000;

  private static final String INSERT_ITEM =
      "INSERT INTO mail_item (mailbox_id, id, type, folder_id, uuid, date, size, flags, name,"
          + " sender, subject, color, view, blob_digest, volume_id, metadata)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private final DataSource dataSource;

  public MailboxStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Commits a cluster. Either everything in it is written (rows, mappings, failures, checkpoint,
   * counters) or nothing is.
   *
   * @throws LeaseLostException when the account's lease is no longer held by {@code leaseOwner}
   */
  public void commit(ClusterWrite w) throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          int mailboxId = w.idSpace().mailboxId();
          insertItems(c, mailboxId, w.items());
          insertTags(c, mailboxId, w.tags());
          insertTagLinks(c, mailboxId, w.tagLinks());
          insertIdMappings(c, w.idSpace(), w.idMappings());
          insertMounts(c, w.operationId(), mailboxId, w.mounts());
          insertFailures(c, w.operationId(), w.failures());
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO restore_cluster (operation_id, source_account_id, seq, items)"
                      + " VALUES (?, ?, ?, ?)")) {
            ps.setString(1, w.operationId());
            ps.setString(2, w.sourceAccountId());
            ps.setInt(3, w.seq());
            ps.setInt(4, w.items().size() + w.tags().size());
            ps.executeUpdate();
          }
          // Last, so the account row is locked only for the commit itself.
          addCounters(c, w.operationId(), w.sourceAccountId(), w.leaseOwner(), w.counters());
          return null;
        });
  }

  /** Adds to an account's counters outside any cluster, checking the lease. */
  public void addCounters(
      String operationId, String sourceAccountId, String leaseOwner, ClusterWrite.Counters n)
      throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          addCounters(c, operationId, sourceAccountId, leaseOwner, n);
          return null;
        });
  }

  private static void addCounters(
      Connection c,
      String operationId,
      String sourceAccountId,
      String leaseOwner,
      ClusterWrite.Counters n)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE restore_account SET items_restored = items_restored + ?,"
                + " items_skipped = items_skipped + ?, items_failed = items_failed + ?,"
                + " bytes_restored = bytes_restored + ?, dedup_hits = dedup_hits + ?"
                + " WHERE operation_id = ? AND source_account_id = ? AND lease_owner = ?")) {
      ps.setLong(1, n.restored());
      ps.setLong(2, n.skipped());
      ps.setLong(3, n.failed());
      ps.setLong(4, n.bytes());
      ps.setLong(5, n.dedupHits());
      ps.setString(6, operationId);
      ps.setString(7, sourceAccountId);
      ps.setString(8, leaseOwner);
      if (ps.executeUpdate() != 1) {
        throw new LeaseLostException(
            "account "
                + sourceAccountId
                + " of operation "
                + operationId
                + " is no longer held by "
                + leaseOwner);
      }
    }
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
        if (r.digest() == null) {
          ps.setNull(14, Types.BINARY);
        } else {
          ps.setBytes(14, r.digest().toBytes());
        }
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

  private static void insertIdMappings(Connection c, IdSpace space, List<IdMapping> mappings)
      throws SQLException {
    if (mappings.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO restore_id_map (mailbox_id, source_id, old_id, new_id)"
                + " VALUES (?, ?, ?, ?)")) {
      for (IdMapping m : mappings) {
        ps.setInt(1, space.mailboxId());
        ps.setInt(2, space.sourceRef());
        ps.setInt(3, m.oldId());
        ps.setInt(4, m.newId());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void insertMounts(
      Connection c, String operationId, int mailboxId, List<MountRow> mounts) throws SQLException {
    if (mounts.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO restore_mount (operation_id, mailbox_id, item_id, source_item_id,"
                + " source_owner_id, source_folder_id) VALUES (?, ?, ?, ?, ?, ?)")) {
      for (MountRow m : mounts) {
        ps.setString(1, operationId);
        ps.setInt(2, mailboxId);
        ps.setInt(3, m.itemId());
        ps.setInt(4, m.sourceItemId());
        ps.setString(5, m.sourceOwnerId());
        ps.setInt(6, m.sourceFolderId());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  static void insertFailures(Connection c, String operationId, List<FailureRow> failures)
      throws SQLException {
    if (failures.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT IGNORE INTO restore_failure (operation_id, source_account_id, item_id, phase,"
                + " severity, reason, location, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (FailureRow f : failures) {
        ps.setString(1, operationId);
        ps.setString(2, f.sourceAccountId());
        ps.setInt(3, f.itemId());
        ps.setString(4, f.phase());
        ps.setString(5, f.severity().name().toLowerCase(Locale.ROOT));
        ps.setString(6, f.reason());
        ps.setString(7, f.location());
        ps.setString(8, f.detail());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** Records failures outside any cluster (provisioning, account-level, shares). */
  public void recordFailures(String operationId, List<FailureRow> failures) throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          insertFailures(c, operationId, failures);
          return null;
        });
  }

  /**
   * The id of a source account (for the id map), registering it the first time.
   *
   * @param ref {@code <backup server id>/<account id>}
   */
  public int sourceRef(String ref) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO restore_source (ref) VALUES (?)"
                      + " ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                  Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, ref);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              return keys.getInt(1);
            }
          }
        });
  }

  /** The id of a source account, if it was ever registered. */
  public Optional<Integer> findSourceRef(String ref) throws SQLException {
    return Sql.queryOne(
        dataSource, "SELECT id FROM restore_source WHERE ref = ?", rs -> rs.getInt(1), ref);
  }

  /** Which of {@code oldIds} are already restored in the id space, and as what. Keyed lookups. */
  public Map<Integer, Integer> mappedIds(IdSpace space, Collection<Integer> oldIds)
      throws SQLException {
    Map<Integer, Integer> mapped = new HashMap<>();
    if (oldIds.isEmpty()) {
      return mapped;
    }
    List<Integer> ids = new ArrayList<>(oldIds);
    Sql.withConnection(
        dataSource,
        c -> {
          for (int from = 0; from < ids.size(); from += MAX_IN_LIST) {
            List<Integer> chunk = ids.subList(from, Math.min(ids.size(), from + MAX_IN_LIST));
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT old_id, new_id FROM restore_id_map WHERE mailbox_id = ?"
                        + " AND source_id = ? AND old_id IN ("
                        + Sql.placeholders(chunk.size())
                        + ")")) {
              ps.setInt(1, space.mailboxId());
              ps.setInt(2, space.sourceRef());
              for (int i = 0; i < chunk.size(); i++) {
                ps.setInt(i + 3, chunk.get(i));
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  mapped.put(rs.getInt(1), rs.getInt(2));
                }
              }
            }
          }
          return null;
        });
    return mapped;
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

  /** Whether one cluster is committed: what a retry asks after a commit whose answer was lost. */
  public boolean clusterCommitted(String operationId, String sourceAccountId, int seq)
      throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT 1 FROM restore_cluster WHERE operation_id = ? AND source_account_id = ?"
                + " AND seq = ?",
            rs -> true,
            operationId,
            sourceAccountId,
            seq)
        .orElse(false);
  }

  /** The clusters of an account this operation has committed. */
  public Set<Integer> committedClusters(String operationId, String sourceAccountId)
      throws SQLException {
    return new HashSet<>(
        Sql.query(
            dataSource,
            "SELECT seq FROM restore_cluster WHERE operation_id = ? AND source_account_id = ?",
            rs -> rs.getInt(1),
            operationId,
            sourceAccountId));
  }
}
