package org.mailrestore.restore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.backup.Json;
import org.mailrestore.mailstore.Sql;

/**
 * The restore bookkeeping in MariaDB: operations, their accounts, and failures. Everything an
 * operation needs to be reported, resumed or taken over by another instance lives here.
 */
public final class OperationStore {

  private final DataSource dataSource;

  public OperationStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** Persists a new, queued operation. */
  public void create(String id, RestoreRequest request, String source, String idempotencyKey)
      throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO restore_operation (id, state, source, request, idempotency_key)"
                      + " VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, id);
            ps.setString(2, OperationState.QUEUED.name());
            ps.setString(3, source);
            ps.setString(4, Json.MAPPER.writeValueAsString(request));
            Sql.setNullableString(ps, 5, idempotencyKey);
            ps.executeUpdate();
          }
          return null;
        });
  }

  /** The operation created with this idempotency key, if any. */
  public Optional<String> findByIdempotencyKey(String key) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT id FROM restore_operation WHERE idempotency_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  public void markRunning(String id) throws SQLException {
    update(
        "UPDATE restore_operation SET state = ?, started_at = COALESCE(started_at, NOW(3)),"
            + " finished_at = NULL, message = NULL WHERE id = ?",
        OperationState.RUNNING.name(),
        id);
  }

  public void enterPhase(String id, Phase phase) throws SQLException {
    update("UPDATE restore_operation SET phase = ? WHERE id = ?", phase.name(), id);
  }

  /** Adds a phase's duration (a resumed phase adds its new part). */
  public void addPhaseTime(String id, Phase phase, long millis) throws SQLException {
    String column = phase.name().toLowerCase(Locale.ROOT) + "_ms";
    Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE restore_operation SET "
                      + column
                      + " = COALESCE("
                      + column
                      + ", 0) + ? WHERE id = ?")) {
            ps.setLong(1, millis);
            ps.setString(2, id);
            ps.executeUpdate();
          }
          return null;
        });
  }

  public void finish(String id, OperationState state, String message) throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE restore_operation SET state = ?, finished_at = NOW(3), message = ?"
                      + " WHERE id = ?")) {
            ps.setString(1, state.name());
            Sql.setNullableString(ps, 2, message);
            ps.setString(3, id);
            ps.executeUpdate();
          }
          return null;
        });
  }

  public Optional<OperationSummary> find(String id) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          OperationSummary.Counts counts;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT COUNT(*), SUM(state IN ('RESTORED','PARTIAL','FAILED','SKIPPED')),"
                      + " SUM(state = 'FAILED'), COALESCE(SUM(items_restored), 0),"
                      + " COALESCE(SUM(items_skipped), 0), COALESCE(SUM(items_failed), 0),"
                      + " COALESCE(SUM(bytes_restored), 0), COALESCE(SUM(dedup_hits), 0)"
                      + " FROM restore_account WHERE operation_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              long errors = 0;
              long warnings = 0;
              try (PreparedStatement f =
                  c.prepareStatement(
                      "SELECT severity, COUNT(*) FROM restore_failure WHERE operation_id = ?"
                          + " GROUP BY severity")) {
                f.setString(1, id);
                try (ResultSet frs = f.executeQuery()) {
                  while (frs.next()) {
                    if ("warning".equals(frs.getString(1))) {
                      warnings = frs.getLong(2);
                    } else {
                      errors = frs.getLong(2);
                    }
                  }
                }
              }
              counts =
                  new OperationSummary.Counts(
                      rs.getInt(1),
                      rs.getInt(2),
                      rs.getInt(3),
                      rs.getLong(4),
                      rs.getLong(5),
                      rs.getLong(6),
                      rs.getLong(7),
                      rs.getLong(8),
                      errors,
                      warnings);
            }
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id, state, phase, source, request, created_at, started_at, finished_at,"
                      + " provisioning_ms, data_ms, shares_ms, message"
                      + " FROM restore_operation WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              String phase = rs.getString(3);
              return Optional.of(
                  new OperationSummary(
                      rs.getString(1),
                      OperationState.valueOf(rs.getString(2)),
                      phase == null ? null : Phase.valueOf(phase),
                      rs.getString(4),
                      Json.MAPPER.readValue(rs.getString(5), RestoreRequest.class),
                      instant(rs.getTimestamp(6)),
                      instant(rs.getTimestamp(7)),
                      instant(rs.getTimestamp(8)),
                      nullableLong(rs, 9),
                      nullableLong(rs, 10),
                      nullableLong(rs, 11),
                      rs.getString(12),
                      counts));
            }
          }
        });
  }

  /** Operations, newest first; {@code state} null for all. */
  public List<String> list(OperationState state, int offset, int limit) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          List<String> ids = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id FROM restore_operation"
                      + (state == null ? "" : " WHERE state = ?")
                      + " ORDER BY created_at DESC, id LIMIT ? OFFSET ?")) {
            int i = 1;
            if (state != null) {
              ps.setString(i++, state.name());
            }
            ps.setInt(i++, limit);
            ps.setInt(i, offset);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                ids.add(rs.getString(1));
              }
            }
          }
          return ids;
        });
  }

  /** Adds an account to the operation (a resumed operation keeps the row it has). */
  public void addAccount(String operationId, String sourceAccountId, String accountName)
      throws SQLException {
    update(
        "INSERT IGNORE INTO restore_account (operation_id, source_account_id, account_name, state)"
            + " VALUES (?, ?, ?, ?)",
        operationId,
        sourceAccountId,
        accountName,
        AccountState.PENDING.name());
  }

  /** Records where an account was provisioned to. */
  public void accountProvisioned(
      String operationId,
      String sourceAccountId,
      String accountName,
      int accountId,
      String accountUuid,
      Integer mailboxId,
      Integer sourceRef,
      boolean freshMailbox,
      AccountState state)
      throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE restore_account SET account_name = ?, account_id = ?, account_uuid = ?,"
                      + " mailbox_id = ?, source_ref = ?, fresh_mailbox = ?, state = ?"
                      + " WHERE operation_id = ? AND source_account_id = ?")) {
            ps.setString(1, accountName);
            ps.setInt(2, accountId);
            ps.setString(3, accountUuid);
            Sql.setNullableInt(ps, 4, mailboxId);
            Sql.setNullableInt(ps, 5, sourceRef);
            ps.setBoolean(6, freshMailbox);
            ps.setString(7, state.name());
            ps.setString(8, operationId);
            ps.setString(9, sourceAccountId);
            ps.executeUpdate();
          }
          return null;
        });
  }

  /**
   * Claims an account for this instance: succeeds when nobody holds it, this instance already does,
   * or the holder's lease expired (it died). The lease is extended by every cluster commit.
   */
  public boolean claimAccount(
      String operationId, String sourceAccountId, String owner, int leaseSeconds)
      throws SQLException {
    return Sql.withConnection(
            dataSource,
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE restore_account SET lease_owner = ?,"
                          + " lease_until = NOW(3) + INTERVAL ? SECOND,"
                          + " started_at = COALESCE(started_at, NOW(3)),"
                          + " state = IF(state = 'PROVISIONED', 'RESTORING', state)"
                          + " WHERE operation_id = ? AND source_account_id = ?"
                          + " AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < NOW(3))")) {
                ps.setString(1, owner);
                ps.setInt(2, leaseSeconds);
                ps.setString(3, operationId);
                ps.setString(4, sourceAccountId);
                ps.setString(5, owner);
                return ps.executeUpdate();
              }
            })
        == 1;
  }

  /** Sets an account's final (or new) state and releases it. */
  public void finishAccount(
      String operationId, String sourceAccountId, AccountState state, String error)
      throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE restore_account SET state = ?, error = ?, lease_owner = NULL,"
                      + " lease_until = NULL,"
                      + " finished_at = IF(? , NOW(3), NULL)"
                      + " WHERE operation_id = ? AND source_account_id = ?")) {
            ps.setString(1, state.name());
            Sql.setNullableString(ps, 2, error);
            ps.setBoolean(3, state.isDone());
            ps.setString(4, operationId);
            ps.setString(5, sourceAccountId);
            ps.executeUpdate();
          }
          return null;
        });
  }

  /** Failures of severity error recorded for one account of an operation. */
  public long errorCount(String operationId, String sourceAccountId) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT COUNT(*) FROM restore_failure WHERE operation_id = ?"
                      + " AND source_account_id = ? AND severity = 'error'")) {
            ps.setString(1, operationId);
            ps.setString(2, sourceAccountId);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }

  public List<AccountProgress> accounts(String operationId) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          List<AccountProgress> list = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT source_account_id, account_name, state, account_id, account_uuid,"
                      + " mailbox_id, source_ref, fresh_mailbox, items_restored, items_skipped,"
                      + " items_failed, bytes_restored, dedup_hits, lease_owner, started_at,"
                      + " finished_at, error"
                      + " FROM restore_account WHERE operation_id = ? ORDER BY account_name")) {
            ps.setString(1, operationId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                list.add(
                    new AccountProgress(
                        rs.getString(1),
                        rs.getString(2),
                        AccountState.valueOf(rs.getString(3)),
                        nullableInt(rs, 4),
                        rs.getString(5),
                        nullableInt(rs, 6),
                        nullableInt(rs, 7),
                        rs.getBoolean(8),
                        rs.getLong(9),
                        rs.getLong(10),
                        rs.getLong(11),
                        rs.getLong(12),
                        rs.getLong(13),
                        rs.getString(14),
                        instant(rs.getTimestamp(15)),
                        instant(rs.getTimestamp(16)),
                        rs.getString(17)));
              }
            }
          }
          return list;
        });
  }

  public List<FailureRecord> failures(String operationId, int offset, int limit)
      throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          List<FailureRecord> list = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id, source_account_id, item_id, phase, severity, reason, location,"
                      + " detail, created_at FROM restore_failure WHERE operation_id = ?"
                      + " ORDER BY id LIMIT ? OFFSET ?")) {
            ps.setString(1, operationId);
            ps.setInt(2, limit);
            ps.setInt(3, offset);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                list.add(
                    new FailureRecord(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getInt(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8),
                        instant(rs.getTimestamp(9))));
              }
            }
          }
          return list;
        });
  }

  private void update(String sql, String... params) throws SQLException {
    Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
              ps.setString(i + 1, params[i]);
            }
            ps.executeUpdate();
          }
          return null;
        });
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }

  private static Long nullableLong(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  private static Integer nullableInt(ResultSet rs, int column) throws SQLException {
    int v = rs.getInt(column);
    return rs.wasNull() ? null : v;
  }
}
