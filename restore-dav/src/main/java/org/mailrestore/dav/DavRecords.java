package org.mailrestore.dav;

import java.sql.Connection;
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
import org.mailrestore.sql.Migrations;
import org.mailrestore.sql.Sql;

/**
 * The DAV target's records in the bookkeeping's database: accounts (users' homes), the collections
 * restored folders became, the tags, and where each restored resource is. Their ids are what the
 * engine's id map points at, unique per account.
 */
final class DavRecords {

  static final String HISTORY_TABLE = "dav_schema_history";

  /** What a collection holds on the server. */
  enum CollectionKind {
    ADDRESSBOOK,
    CALENDAR,
    TASKS,
    /** A folder of another view: recorded for its children, nothing on the server. */
    NONE
  }

  /** A restored folder: its collection's name under the home, its name, its parent's id. */
  record CollectionRow(
      int id,
      String href,
      String name,
      int parentId,
      CollectionKind kind,
      String view,
      int color) {}

  /** Where a restored resource is and what it was made from. */
  record ResourceRow(
      int id,
      int sourceId,
      int collectionId,
      int type,
      String href,
      String uid,
      BlobDigest sourceDigest,
      long sourceSize,
      byte[] writtenSha256) {}

  private final DataSource dataSource;
  private final String server;

  DavRecords(DataSource dataSource, String server) {
    this.dataSource = dataSource;
    this.server = server;
  }

  static void migrate(DataSource dataSource) {
    Migrations.migrate(dataSource, "classpath:db/dav", HISTORY_TABLE);
  }

  DataSource dataSource() {
    return dataSource;
  }

  /** The account key of a user on this server, recorded the first time. */
  int account(String login) throws SQLException {
    Sql.update(
        dataSource, "INSERT IGNORE INTO dav_account (server, login) VALUES (?, ?)", server, login);
    return findAccount(login).orElseThrow();
  }

  /** Every user a restore recorded on this server. */
  List<String> logins() throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT login FROM dav_account WHERE server = ? ORDER BY login",
        rs -> rs.getString(1),
        server);
  }

  Optional<Integer> findAccount(String login) throws SQLException {
    return Sql.queryOne(
        dataSource,
        "SELECT id FROM dav_account WHERE server = ? AND login = ?",
        rs -> rs.getInt(1),
        server,
        login);
  }

  /** Reserves {@code n} ids for the account, in the caller's transaction; returns the first. */
  static int allocate(Connection c, int accountId, int n) throws SQLException {
    return Sql.reserveIds(c, "dav_account", accountId, n);
  }

  Map<Integer, CollectionRow> collections(int accountId) throws SQLException {
    Map<Integer, CollectionRow> rows = new HashMap<>();
    for (CollectionRow row :
        Sql.query(
            dataSource,
            "SELECT id, href, name, parent_id, kind, view, color FROM dav_collection"
                + " WHERE account_id = ?",
            rs ->
                new CollectionRow(
                    rs.getInt(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getInt(4),
                    CollectionKind.valueOf(rs.getString(5)),
                    rs.getString(6),
                    rs.getInt(7)),
            accountId)) {
      rows.put(row.id(), row);
    }
    return rows;
  }

  static void addCollection(Connection c, int accountId, CollectionRow row) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO dav_collection (account_id, id, href, name, parent_id, kind, view, color)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE href = VALUES(href),"
                + " name = VALUES(name), parent_id = VALUES(parent_id)")) {
      Sql.bind(
          ps,
          accountId,
          row.id(),
          row.href(),
          row.name(),
          row.parentId(),
          row.kind().name(),
          row.view(),
          row.color());
      ps.executeUpdate();
    }
  }

  Map<Integer, String> tags(int accountId) throws SQLException {
    Map<Integer, String> tags = new HashMap<>();
    Sql.query(
            dataSource,
            "SELECT id, name FROM dav_tag WHERE account_id = ?",
            rs -> Map.entry(rs.getInt(1), rs.getString(2)),
            accountId)
        .forEach(e -> tags.put(e.getKey(), e.getValue()));
    return tags;
  }

  static void addTag(Connection c, int accountId, int id, String name) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO dav_tag (account_id, id, name) VALUES (?, ?, ?)")) {
      Sql.bind(ps, accountId, id, name);
      ps.executeUpdate();
    }
  }

  static void addResources(Connection c, int accountId, List<ResourceRow> rows)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO dav_resource (account_id, id, source_id, collection_id, type, href, uid,"
                + " source_digest, source_size, written_sha256)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (ResourceRow r : rows) {
        Sql.bind(
            ps, accountId, r.id(), r.sourceId(), r.collectionId(), r.type(), r.href(), r.uid());
        Sql.setNullableBytes(ps, 8, r.sourceDigest() == null ? null : r.sourceDigest().toBytes());
        ps.setLong(9, r.sourceSize());
        ps.setBytes(10, r.writtenSha256());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  List<ResourceRow> resources(int accountId, Collection<Integer> ids) throws SQLException {
    List<ResourceRow> rows = new ArrayList<>();
    List<Integer> all = List.copyOf(ids);
    for (int from = 0; from < all.size(); from += Sql.MAX_IN_LIST) {
      List<Integer> part = all.subList(from, Math.min(all.size(), from + Sql.MAX_IN_LIST));
      Object[] params = new Object[part.size() + 1];
      params[0] = accountId;
      for (int i = 0; i < part.size(); i++) {
        params[i + 1] = part.get(i);
      }
      rows.addAll(
          Sql.query(
              dataSource,
              "SELECT id, source_id, collection_id, type, href, uid, source_digest, source_size,"
                  + " written_sha256 FROM dav_resource WHERE account_id = ? AND id IN ("
                  + Sql.placeholders(part.size())
                  + ")",
              DavRecords::resourceRow,
              params));
    }
    return rows;
  }

  /** The resource a restore recorded at this place (its collection and name), if any. */
  Optional<ResourceRow> resourceAt(int accountId, String href) throws SQLException {
    return Sql.queryOne(
        dataSource,
        "SELECT id, source_id, collection_id, type, href, uid, source_digest, source_size,"
            + " written_sha256 FROM dav_resource WHERE account_id = ? AND href = ? LIMIT 1",
        DavRecords::resourceRow,
        accountId,
        href);
  }

  /** Every resource of an account, for reading it back whole. */
  List<ResourceRow> resources(int accountId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT id, source_id, collection_id, type, href, uid, source_digest, source_size,"
            + " written_sha256 FROM dav_resource WHERE account_id = ? ORDER BY id",
        DavRecords::resourceRow,
        accountId);
  }

  private static ResourceRow resourceRow(ResultSet rs) throws SQLException {
    byte[] digest = rs.getBytes(7);
    return new ResourceRow(
        rs.getInt(1),
        rs.getInt(2),
        rs.getInt(3),
        rs.getInt(4),
        rs.getString(5),
        rs.getString(6),
        digest == null ? null : BlobDigest.of(digest),
        rs.getLong(8),
        rs.getBytes(9));
  }

  long countResources(int accountId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT (SELECT COUNT(*) FROM dav_resource WHERE account_id = ?)"
                + " + (SELECT COUNT(*) FROM dav_collection WHERE account_id = ?)"
                + " + (SELECT COUNT(*) FROM dav_tag WHERE account_id = ?)",
            rs -> rs.getLong(1),
            accountId,
            accountId,
            accountId)
        .orElse(0L);
  }

  /** Forgets what the account held (its collections were emptied). */
  void forget(int accountId) throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          for (String table : List.of("dav_resource", "dav_collection", "dav_tag")) {
            try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM " + table + " WHERE account_id = ?")) {
              Sql.bind(ps, accountId);
              ps.executeUpdate();
            }
          }
          return null;
        });
  }
}
