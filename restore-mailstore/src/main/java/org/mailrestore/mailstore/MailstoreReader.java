package org.mailrestore.mailstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.sql.Sql;

/** Reads the mailstore back, for verification and export. Keyed, batched queries only. */
public final class MailstoreReader {

  /** An account as stored. */
  public record StoredAccount(
      int id,
      String uuid,
      String name,
      String domain,
      String cos,
      String status,
      boolean system,
      String attributesJson,
      List<String> aliases,
      Integer mailboxId) {}

  /** A {@code mail_item} row with its tag names. */
  public record StoredItem(ItemRow row, List<String> tags) {}

  /** A grant as stored. */
  public record StoredGrant(
      int folderId, String granteeType, String granteeId, String granteeName, String rights) {}

  /** Where a mountpoint points. */
  public record StoredMount(int itemId, String ownerUuid, int remoteFolderId) {}

  private final DataSource dataSource;

  public MailstoreReader(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public Optional<StoredAccount> account(String name) throws SQLException {
    return accountWhere("a.name = ?", name);
  }

  /** The account with this id (its uuid). */
  public Optional<StoredAccount> accountByUuid(String uuid) throws SQLException {
    return accountWhere("a.uuid = ?", uuid);
  }

  /** Every account's uuid, by address. */
  public List<String> accountUuids() throws SQLException {
    return Sql.query(dataSource, "SELECT uuid FROM account ORDER BY name", rs -> rs.getString(1));
  }

  /** Every domain. */
  public List<org.mailrestore.mail.Domain> domains() throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT name, status, attributes FROM domain ORDER BY name",
        rs ->
            new org.mailrestore.mail.Domain(
                rs.getString(1),
                rs.getString(2),
                org.mailrestore.mail.Json.toMap(rs.getString(3))));
  }

  private Optional<StoredAccount> accountWhere(String condition, String value) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          StoredAccount account;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT a.id, a.uuid, a.name, d.name, cs.name, a.status, a.is_system,"
                      + " a.attributes, m.id FROM account a JOIN domain d ON d.id = a.domain_id"
                      + " LEFT JOIN cos cs ON cs.id = a.cos_id"
                      + " LEFT JOIN mailbox m ON m.account_id = a.id WHERE "
                      + condition)) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              int mailbox = rs.getInt(9);
              Integer mailboxId = rs.wasNull() ? null : mailbox;
              account =
                  new StoredAccount(
                      rs.getInt(1),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      rs.getString(5),
                      rs.getString(6),
                      rs.getBoolean(7),
                      rs.getString(8),
                      new ArrayList<>(),
                      mailboxId);
            }
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT alias FROM account_alias WHERE account_id = ? ORDER BY alias")) {
            ps.setInt(1, account.id());
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                account.aliases().add(rs.getString(1));
              }
            }
          }
          return Optional.of(account);
        });
  }

  /** The items with these ids, with their tags. */
  public Map<Integer, StoredItem> items(int mailboxId, Collection<Integer> ids)
      throws SQLException {
    Map<Integer, StoredItem> items = new HashMap<>();
    if (ids.isEmpty()) {
      return items;
    }
    List<Integer> list = new ArrayList<>(ids);
    Sql.withConnection(
        dataSource,
        c -> {
          for (int from = 0; from < list.size(); from += Sql.MAX_IN_LIST) {
            List<Integer> chunk = list.subList(from, Math.min(list.size(), from + Sql.MAX_IN_LIST));
            Map<Integer, List<String>> tags = new HashMap<>();
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT ti.item_id, t.name FROM tagged_item ti JOIN tag t"
                        + " ON t.mailbox_id = ti.mailbox_id AND t.id = ti.tag_id"
                        + " WHERE ti.mailbox_id = ? AND ti.item_id IN ("
                        + Sql.placeholders(chunk.size())
                        + ") ORDER BY ti.item_id, t.name")) {
              bindIds(ps, mailboxId, chunk);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  tags.computeIfAbsent(rs.getInt(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
              }
            }
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT "
                        + ITEM_COLUMNS
                        + " FROM mail_item WHERE mailbox_id = ? AND id IN ("
                        + Sql.placeholders(chunk.size())
                        + ")")) {
              bindIds(ps, mailboxId, chunk);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  ItemRow row = itemRow(rs);
                  items.put(row.id(), new StoredItem(row, tags.getOrDefault(row.id(), List.of())));
                }
              }
            }
          }
          return null;
        });
    return items;
  }

  private static final String ITEM_COLUMNS =
      "id, type, folder_id, uuid, date, size, flags, name, sender, subject, color, view,"
          + " blob_digest, volume_id, metadata";

  private static ItemRow itemRow(ResultSet rs) throws SQLException {
    int color = rs.getInt(11);
    Integer colorValue = rs.wasNull() ? null : color;
    byte[] digest = rs.getBytes(13);
    int volume = rs.getInt(14);
    Integer volumeId = rs.wasNull() ? null : volume;
    return new ItemRow(
        rs.getInt(1),
        rs.getInt(2),
        rs.getInt(3),
        rs.getString(4),
        rs.getLong(5),
        rs.getLong(6),
        rs.getInt(7),
        rs.getString(8),
        rs.getString(9),
        rs.getString(10),
        colorValue,
        rs.getString(12),
        digest == null ? null : BlobDigest.of(digest),
        volumeId,
        rs.getString(15));
  }

  /**
   * A page of a mailbox's items of the given types (codes), in id order, after {@code afterId}: how
   * an export walks a mailbox of any size.
   */
  public List<StoredItem> itemsAfter(
      int mailboxId, int afterId, int limit, Collection<Integer> typeCodes) throws SQLException {
    List<ItemRow> rows =
        Sql.query(
            dataSource,
            "SELECT "
                + ITEM_COLUMNS
                + " FROM mail_item WHERE mailbox_id = ? AND id > ? AND type IN ("
                + Sql.placeholders(typeCodes.size())
                + ") ORDER BY id LIMIT ?",
            MailstoreReader::itemRow,
            params(mailboxId, afterId, typeCodes, limit));
    Map<Integer, StoredItem> withTags = items(mailboxId, rows.stream().map(ItemRow::id).toList());
    return rows.stream().map(r -> withTags.get(r.id())).toList();
  }

  private static Object[] params(int mailboxId, int afterId, Collection<Integer> codes, int limit) {
    List<Object> params = new ArrayList<>();
    params.add(mailboxId);
    params.add(afterId);
    params.addAll(codes);
    params.add(limit);
    return params.toArray();
  }

  private static void bindIds(PreparedStatement ps, int mailboxId, List<Integer> ids)
      throws SQLException {
    ps.setInt(1, mailboxId);
    for (int i = 0; i < ids.size(); i++) {
      ps.setInt(i + 2, ids.get(i));
    }
  }

  /** The number of items the user created (ids from 256 on), tags included. */
  public long countUserItems(int mailboxId) throws SQLException {
    return count(
        "SELECT (SELECT COUNT(*) FROM mail_item WHERE mailbox_id = ? AND id >= 256)"
            + " + (SELECT COUNT(*) FROM tag WHERE mailbox_id = ?)",
        mailboxId,
        mailboxId);
  }

  private long count(String sql, Object... params) throws SQLException {
    return Sql.queryOne(dataSource, sql, rs -> rs.getLong(1), params).orElse(0L);
  }

  /** The mailbox's tags: id to name. */
  public Map<Integer, String> tagNames(int mailboxId) throws SQLException {
    Map<Integer, String> tags = new HashMap<>();
    for (var t :
        Sql.query(
            dataSource,
            "SELECT id, name FROM tag WHERE mailbox_id = ?",
            rs -> Map.entry(rs.getInt(1), rs.getString(2)),
            mailboxId)) {
      tags.put(t.getKey(), t.getValue());
    }
    return tags;
  }

  public List<StoredGrant> grants(int mailboxId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT folder_id, grantee_type, grantee_id, grantee_name, rights FROM acl"
            + " WHERE mailbox_id = ? ORDER BY folder_id, grantee_type, grantee_id",
        rs ->
            new StoredGrant(
                rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)),
        mailboxId);
  }

  public Map<Integer, StoredMount> mounts(int mailboxId) throws SQLException {
    Map<Integer, StoredMount> mounts = new HashMap<>();
    for (StoredMount m :
        Sql.query(
            dataSource,
            "SELECT item_id, owner_uuid, remote_folder_id FROM mountpoint WHERE mailbox_id = ?",
            rs -> new StoredMount(rs.getInt(1), rs.getString(2), rs.getInt(3)),
            mailboxId)) {
      mounts.put(m.itemId(), m);
    }
    return mounts;
  }
}
