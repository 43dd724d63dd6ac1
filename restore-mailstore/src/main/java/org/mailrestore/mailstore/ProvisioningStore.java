package org.mailrestore.mailstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.sql.Sql;

/**
 * Writes provisioning: domains, classes of service, lists, accounts, aliases and mailboxes. Every
 * write is idempotent: what exists is found and kept, never duplicated.
 */
public final class ProvisioningStore {

  private static final int DELETE_CHUNK = 10_000;

  private final DataSource dataSource;

  public ProvisioningStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The domain's id, creating it when absent (an existing domain keeps its attributes). */
  public int ensureDomain(Domain domain) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c ->
            upsertReturningId(
                c,
                "INSERT INTO domain (name, status, attributes) VALUES (?, ?, ?)"
                    + " ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                domain.name(),
                domain.status(),
                Json.fromMap(domain.attributes())));
  }

  public int ensureCos(ClassOfService cos) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c ->
            upsertReturningId(
                c,
                "INSERT INTO cos (name, attributes) VALUES (?, ?)"
                    + " ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                cos.name(),
                Json.fromMap(cos.attributes())));
  }

  /** Creates the list when absent and adds its members (members already there stay). */
  public int ensureList(DistributionList list, int domainId) throws SQLException {
    return Sql.inTransaction(
        dataSource,
        c -> {
          int id;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO distribution_list (address, domain_id, display_name, attributes)"
                      + " VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                  Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, list.address());
            ps.setInt(2, domainId);
            Sql.setNullableString(ps, 3, list.displayName());
            Sql.setNullableString(ps, 4, Json.fromMap(list.attributes()));
            ps.executeUpdate();
            id = generatedId(ps);
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT IGNORE INTO list_member (list_id, member) VALUES (?, ?)")) {
            for (String member : list.members()) {
              ps.setInt(1, id);
              ps.setString(2, member);
              ps.addBatch();
            }
            ps.executeBatch();
          }
          return id;
        });
  }

  public Optional<Integer> domainId(String name) throws SQLException {
    return idByName("SELECT id FROM domain WHERE name = ?", name);
  }

  public Optional<Integer> cosId(String name) throws SQLException {
    return idByName("SELECT id FROM cos WHERE name = ?", name);
  }

  private Optional<Integer> idByName(String sql, String name) throws SQLException {
    return Sql.queryOne(dataSource, sql, rs -> rs.getInt(1), name);
  }

  public Optional<TargetAccount> findAccount(String name) throws SQLException {
    return findAccountBy("a.name = ?", name);
  }

  public Optional<TargetAccount> findAccountByUuid(String uuid) throws SQLException {
    return findAccountBy("a.uuid = ?", uuid);
  }

  private Optional<TargetAccount> findAccountBy(String condition, String value)
      throws SQLException {
    return Sql.queryOne(
        dataSource,
        "SELECT a.id, a.uuid, a.name, m.id FROM account a"
            + " LEFT JOIN mailbox m ON m.account_id = a.id WHERE "
            + condition,
        rs ->
            new TargetAccount(
                rs.getInt(1), rs.getString(2), rs.getString(3), Sql.nullableInt(rs, 4)),
        value);
  }

  /** Creates an account with an empty mailbox (system folders only), in one transaction. */
  public TargetAccount createAccount(
      String uuid,
      String name,
      int domainId,
      Integer cosId,
      String status,
      boolean system,
      String attributesJson)
      throws SQLException {
    return Sql.inTransaction(
        dataSource,
        c -> {
          int accountId;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO account (uuid, name, domain_id, cos_id, status, is_system, attributes)"
                      + " VALUES (?, ?, ?, ?, ?, ?, ?)",
                  Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, uuid);
            ps.setString(2, name);
            ps.setInt(3, domainId);
            Sql.setNullableInt(ps, 4, cosId);
            ps.setString(5, status);
            ps.setBoolean(6, system);
            Sql.setNullableString(ps, 7, attributesJson);
            ps.executeUpdate();
            accountId = generatedId(ps);
          }
          int mailboxId = createMailbox(c, accountId);
          return new TargetAccount(accountId, uuid, name, mailboxId);
        });
  }

  /**
   * Sets an existing account's settings from the backup. With {@code replace} they overwrite what
   * is there; otherwise missing attributes are added (existing ones win) and a missing class of
   * service is set.
   */
  public void updateAccount(
      int accountId,
      Integer cosId,
      String status,
      boolean system,
      Map<String, String> attributes,
      boolean replace)
      throws SQLException {
    if (replace) {
      Sql.update(
          dataSource,
          "UPDATE account SET cos_id = ?, status = ?, is_system = ?, attributes = ? WHERE id = ?",
          cosId,
          status,
          system,
          Json.fromMap(attributes),
          accountId);
      return;
    }
    Sql.inTransaction(
        dataSource,
        c -> {
          String current;
          try (PreparedStatement ps =
              c.prepareStatement("SELECT attributes FROM account WHERE id = ? FOR UPDATE")) {
            ps.setInt(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              current = rs.getString(1);
            }
          }
          Map<String, String> merged = new LinkedHashMap<>(attributes);
          merged.putAll(Json.toMap(current));
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE account SET attributes = ?, cos_id = COALESCE(cos_id, ?) WHERE id = ?")) {
            Sql.bind(ps, Json.fromMap(merged), cosId, accountId);
            ps.executeUpdate();
          }
          return null;
        });
  }

  /** The account's mailbox, created with its system folders when it has none. */
  public int ensureMailbox(int accountId) throws SQLException {
    return Sql.inTransaction(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT id FROM mailbox WHERE account_id = ? FOR UPDATE")) {
            ps.setInt(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                return rs.getInt(1);
              }
            }
          }
          return createMailbox(c, accountId);
        });
  }

  private static int createMailbox(Connection c, int accountId) throws SQLException {
    int mailboxId;
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO mailbox (account_id) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
      ps.setInt(1, accountId);
      ps.executeUpdate();
      mailboxId = generatedId(ps);
    }
    insertSystemFolders(c, mailboxId);
    return mailboxId;
  }

  private static void insertSystemFolders(Connection c, int mailboxId) throws SQLException {
    long now = System.currentTimeMillis();
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO mail_item (mailbox_id, id, type, folder_id, date, name, view)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (SystemFolder f : SystemFolder.values()) {
        ps.setInt(1, mailboxId);
        ps.setInt(2, f.id());
        ps.setInt(3, ItemType.FOLDER.code());
        ps.setInt(4, f.parentId());
        ps.setLong(5, now);
        ps.setString(6, f.folderName());
        Sql.setNullableString(ps, 7, f.view());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * Empties a mailbox for the {@code replace} policy: every item, tag, grant, mountpoint and id
   * mapping goes; the system folders come back. Deletes in chunks so no transaction grows with the
   * mailbox.
   */
  public void emptyMailbox(int mailboxId) throws SQLException {
    for (String table : List.of("tagged_item", "tag", "acl", "mountpoint", "mail_item")) {
      int deleted;
      do {
        deleted =
            Sql.withConnection(
                dataSource,
                c -> {
                  try (PreparedStatement ps =
                      c.prepareStatement(
                          "DELETE FROM " + table + " WHERE mailbox_id = ? LIMIT " + DELETE_CHUNK)) {
                    ps.setInt(1, mailboxId);
                    return ps.executeUpdate();
                  }
                });
      } while (deleted == DELETE_CHUNK);
    }
    Sql.inTransaction(
        dataSource,
        c -> {
          insertSystemFolders(c, mailboxId);
          return null;
        });
  }

  /**
   * Adds aliases to an account. Returns the aliases that belong to another account (left as they
   * are); aliases the account already has are fine.
   */
  public List<String> addAliases(int accountId, List<String> aliases) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          List<String> taken = new ArrayList<>();
          try (PreparedStatement insert =
                  c.prepareStatement(
                      "INSERT IGNORE INTO account_alias (alias, account_id) VALUES (?, ?)");
              PreparedStatement owner =
                  c.prepareStatement("SELECT account_id FROM account_alias WHERE alias = ?")) {
            for (String alias : aliases) {
              insert.setString(1, alias);
              insert.setInt(2, accountId);
              if (insert.executeUpdate() == 0) {
                owner.setString(1, alias);
                try (ResultSet rs = owner.executeQuery()) {
                  if (rs.next() && rs.getInt(1) != accountId) {
                    taken.add(alias);
                  }
                }
              }
            }
          }
          return taken;
        });
  }

  private static int upsertReturningId(Connection c, String sql, String... values)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      for (int i = 0; i < values.length; i++) {
        Sql.setNullableString(ps, i + 1, values[i]);
      }
      ps.executeUpdate();
      return generatedId(ps);
    }
  }

  private static int generatedId(PreparedStatement ps) throws SQLException {
    try (ResultSet keys = ps.getGeneratedKeys()) {
      if (!keys.next()) {
        throw new SQLException("the database returned no id");
      }
      return keys.getInt(1);
    }
  }
}
