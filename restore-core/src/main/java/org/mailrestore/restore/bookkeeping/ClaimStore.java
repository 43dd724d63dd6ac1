package org.mailrestore.restore.bookkeeping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/**
 * Which operation writes each account: one at a time. An operation claims every account it will
 * write, all at once or not at all, and keeps them until it ends; the claims of operations that
 * have ended (or were never started) count for nothing, so a crash never leaves an account locked.
 */
public final class ClaimStore {

  /** Names checked or claimed per statement. */
  private static final int CHUNK = 500;

  /**
   * An account another unfinished operation holds.
   *
   * @param operationId the operation holding it
   * @param accountName the account (lower case)
   * @param others how many more of the wanted accounts that operation, or others, hold
   */
  public record Conflict(String operationId, String accountName, int others) {}

  private final DataSource dataSource;

  public ClaimStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** How a claim names an account: addresses are compared without case. */
  public static String key(String accountName) {
    return accountName.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * Claims every one of {@code accountNames} for the operation, unless another unfinished operation
   * holds one of them: then claims nothing and says which.
   */
  public Optional<Conflict> claim(String operationId, Collection<String> accountNames)
      throws SQLException {
    List<String> keys = accountNames.stream().map(ClaimStore::key).distinct().sorted().toList();
    return Sql.inTransaction(
        dataSource,
        c -> {
          try (PreparedStatement lock =
              c.prepareStatement("SELECT id FROM restore_claim_lock WHERE id = 1 FOR UPDATE")) {
            lock.executeQuery().close();
          }
          List<Conflict> held = new ArrayList<>();
          for (int from = 0; from < keys.size(); from += CHUNK) {
            held.addAll(
                heldByOthers(
                    c, operationId, keys.subList(from, Math.min(keys.size(), from + CHUNK))));
          }
          if (!held.isEmpty()) {
            Conflict first = held.getFirst();
            return Optional.of(
                new Conflict(first.operationId(), first.accountName(), held.size() - 1));
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO restore_claim (account_name, operation_id) VALUES (?, ?)"
                      + " ON DUPLICATE KEY UPDATE operation_id = VALUES(operation_id),"
                      + " claimed_at = NOW(3)")) {
            for (String key : keys) {
              Sql.bind(ps, key, operationId);
              ps.addBatch();
            }
            ps.executeBatch();
          }
          return Optional.<Conflict>empty();
        });
  }

  private static List<Conflict> heldByOthers(Connection c, String operationId, List<String> keys)
      throws SQLException {
    List<Conflict> held = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT c.operation_id, c.account_name FROM restore_claim c"
                + " JOIN restore_operation o ON o.id = c.operation_id"
                + " WHERE c.operation_id <> ? AND o.state IN ('QUEUED', 'RUNNING')"
                + " AND c.account_name IN ("
                + Sql.placeholders(keys.size())
                + ") ORDER BY o.created_at, c.account_name")) {
      Object[] params = new Object[keys.size() + 1];
      params[0] = operationId;
      for (int i = 0; i < keys.size(); i++) {
        params[i + 1] = keys.get(i);
      }
      Sql.bind(ps, params);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          held.add(new Conflict(rs.getString(1), rs.getString(2), 0));
        }
      }
    }
    return held;
  }

  /** The accounts the operation holds (lower case, sorted). */
  public List<String> heldBy(String operationId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT account_name FROM restore_claim WHERE operation_id = ? ORDER BY account_name",
        rs -> rs.getString(1),
        operationId);
  }

  /** Lets the operation's accounts go (it has ended). */
  public void release(String operationId) throws SQLException {
    Sql.update(dataSource, "DELETE FROM restore_claim WHERE operation_id = ?", operationId);
  }
}
