package org.mailrestore.imap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.sql.Migrations;
import org.mailrestore.sql.Sql;

/**
 * The IMAP target's records in the bookkeeping's database: accounts (server logins), the folders
 * and tags it made, and where each restored message is on the server. Ids of folders, tags and
 * messages are the target's ids the engine's id map points at, unique per account.
 */
final class ImapRecords {

  static final String HISTORY_TABLE = "imap_schema_history";

  /** A folder on the server: its full path, its name as restored, its parent's id. */
  record FolderRow(int id, String path, String name, int parentId) {}

  record TagRow(int id, String name, String keyword) {}

  /**
   * Where a restored message is, and what turns the server's bytes back into the source's.
   *
   * @param nulBytes where NUL bytes were sent as {@code 0x80} ({@link NulBytes}), or null
   */
  record MessageRow(
      int id,
      int folderId,
      long uidValidity,
      long uid,
      LineEndings lineEndings,
      byte[] bareLines,
      byte[] nulBytes) {

    /** The message as it was in the source, from the server's bytes (changed in place). */
    byte[] asInSource(byte[] fromServer) {
      return lineEndings.restore(NulBytes.restore(fromServer, nulBytes), bareLines);
    }

    /** As {@link #asInSource(byte[])}, as the message streams from the server. */
    java.io.InputStream asInSource(java.io.InputStream fromServer) {
      return lineEndings.restoring(NulBytes.restoring(fromServer, nulBytes), bareLines);
    }
  }

  private final DataSource dataSource;
  private final String server;

  ImapRecords(DataSource dataSource, String server) {
    this.dataSource = dataSource;
    this.server = server;
  }

  static void migrate(DataSource dataSource) {
    Migrations.migrate(dataSource, "classpath:db/imap", HISTORY_TABLE);
  }

  DataSource dataSource() {
    return dataSource;
  }

  /** The account key of a login on this server, recorded the first time. */
  int account(String login) throws SQLException {
    Sql.update(
        dataSource, "INSERT IGNORE INTO imap_account (server, login) VALUES (?, ?)", server, login);
    return Sql.queryOne(
            dataSource,
            "SELECT id FROM imap_account WHERE server = ? AND login = ?",
            rs -> rs.getInt(1),
            server,
            login)
        .orElseThrow();
  }

  /** Every login a restore recorded on this server. */
  List<String> logins() throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT login FROM imap_account WHERE server = ? ORDER BY login",
        rs -> rs.getString(1),
        server);
  }

  /** The ids of an account's recorded messages, in the order they were restored. */
  List<Integer> messageIds(int accountId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT id FROM imap_message WHERE account_id = ? ORDER BY id",
        rs -> rs.getInt(1),
        accountId);
  }

  /** The account key of a login, if a restore recorded it. */
  Optional<Integer> findAccount(String login) throws SQLException {
    return Sql.queryOne(
        dataSource,
        "SELECT id FROM imap_account WHERE server = ? AND login = ?",
        rs -> rs.getInt(1),
        server,
        login);
  }

  /** Reserves {@code n} ids for the account, in the caller's transaction; returns the first. */
  static int allocate(Connection c, int accountId, int n) throws SQLException {
    return Sql.reserveIds(c, "imap_account", accountId, n);
  }

  Map<Integer, FolderRow> folders(int accountId) throws SQLException {
    Map<Integer, FolderRow> rows = new HashMap<>();
    for (FolderRow row :
        Sql.query(
            dataSource,
            "SELECT id, path, name, parent_id FROM imap_folder WHERE account_id = ?",
            rs -> new FolderRow(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getInt(4)),
            accountId)) {
      rows.put(row.id(), row);
    }
    return rows;
  }

  static void addFolder(Connection c, int accountId, FolderRow row) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO imap_folder (account_id, id, path, name, parent_id) VALUES (?, ?, ?, ?, ?)"
                + " ON DUPLICATE KEY UPDATE path = VALUES(path), name = VALUES(name),"
                + " parent_id = VALUES(parent_id)")) {
      Sql.bind(ps, accountId, row.id(), row.path(), row.name(), row.parentId());
      ps.executeUpdate();
    }
  }

  Map<Integer, TagRow> tags(int accountId) throws SQLException {
    Map<Integer, TagRow> rows = new HashMap<>();
    for (TagRow row :
        Sql.query(
            dataSource,
            "SELECT id, name, keyword FROM imap_tag WHERE account_id = ?",
            rs -> new TagRow(rs.getInt(1), rs.getString(2), rs.getString(3)),
            accountId)) {
      rows.put(row.id(), row);
    }
    return rows;
  }

  static void addTag(Connection c, int accountId, TagRow row) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO imap_tag (account_id, id, name, keyword) VALUES (?, ?, ?, ?)")) {
      Sql.bind(ps, accountId, row.id(), row.name(), row.keyword());
      ps.executeUpdate();
    }
  }

  static void addMessages(Connection c, int accountId, List<MessageRow> rows) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO imap_message (account_id, id, folder_id, uidvalidity, uid, line_endings,"
                + " bare_lines, nul_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (MessageRow r : rows) {
        Sql.bind(
            ps, accountId, r.id(), r.folderId(), r.uidValidity(), r.uid(), r.lineEndings().name());
        ps.setBytes(7, r.bareLines());
        ps.setBytes(8, r.nulBytes());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  List<MessageRow> messages(int accountId, Collection<Integer> ids) throws SQLException {
    List<MessageRow> rows = new ArrayList<>();
    List<Integer> all = List.copyOf(ids);
    for (int from = 0; from < all.size(); from += 1000) {
      List<Integer> part = all.subList(from, Math.min(all.size(), from + 1000));
      Object[] params = new Object[part.size() + 1];
      params[0] = accountId;
      for (int i = 0; i < part.size(); i++) {
        params[i + 1] = part.get(i);
      }
      rows.addAll(
          Sql.query(
              dataSource,
              "SELECT id, folder_id, uidvalidity, uid, line_endings, bare_lines, nul_bytes"
                  + " FROM imap_message"
                  + " WHERE account_id = ? AND id IN ("
                  + Sql.placeholders(part.size())
                  + ")",
              ImapRecords::messageRow,
              params));
    }
    return rows;
  }

  private static MessageRow messageRow(ResultSet rs) throws SQLException {
    return new MessageRow(
        rs.getInt(1),
        rs.getInt(2),
        rs.getLong(3),
        rs.getLong(4),
        LineEndings.valueOf(rs.getString(5)),
        rs.getBytes(6),
        rs.getBytes(7));
  }

  /** The UIDs of a folder that restores recorded. */
  Set<Long> recordedUids(int accountId, int folderId, long uidValidity) throws SQLException {
    return new HashSet<>(
        Sql.query(
            dataSource,
            "SELECT uid FROM imap_message WHERE account_id = ? AND folder_id = ?"
                + " AND uidvalidity = ?",
            rs -> rs.getLong(1),
            accountId,
            folderId,
            uidValidity));
  }

  long countMessages(int accountId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT COUNT(*) FROM imap_message WHERE account_id = ?",
            rs -> rs.getLong(1),
            accountId)
        .orElse(0L);
  }

  /** Forgets what the account held (its mailbox was emptied). */
  void forget(int accountId) throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          for (String table : List.of("imap_message", "imap_folder", "imap_tag")) {
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
