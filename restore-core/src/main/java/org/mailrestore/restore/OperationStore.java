package org.mailrestore.restore;

import static org.mailrestore.mailstore.Sql.nullableInt;
import static org.mailrestore.mailstore.Sql.nullableLong;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
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

  private static final String ACCOUNT_COLUMNS =
      "source_account_id, account_name, state, account_id, account_uuid, mailbox_id, source_ref,"
          + " fresh_mailbox, items_restored, items_skipped, items_failed, bytes_restored,"
          + " dedup_hits, lease_owner, started_at, finished_at, error";

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
    Sql.update(
        dataSource,
        "INSERT INTO restore_operation (id, state, source, request, idempotency_key)"
            + " VALUES (?, ?, ?, ?, ?)",
        id,
        OperationState.QUEUED.name(),
        source,
        Json.MAPPER.writeValueAsString(request),
        idempotencyKey);
  }

  /** The operation created with this idempotency key, if any. */
  public Optional<String> findByIdempotencyKey(String key) throws SQLException {
    return Sql.queryOne(
        dataSource,
        "SELECT id FROM restore_operation WHERE idempotency_key = ?",
        rs -> rs.getString(1),
        key);
  }

  public void markRunning(String id) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET state = ?, started_at = COALESCE(started_at, NOW(3)),"
            + " finished_at = NULL, message = NULL WHERE id = ?",
        OperationState.RUNNING.name(),
        id);
  }

  public void enterPhase(String id, Phase phase) throws SQLException {
    Sql.update(dataSource, "UPDATE restore_operation SET phase = ? WHERE id = ?", phase.name(), id);
  }

  /** Adds a phase's duration (a resumed phase adds its new part). */
  public void addPhaseTime(String id, Phase phase, long millis) throws SQLException {
    String column = phase.name().toLowerCase(Locale.ROOT) + "_ms";
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET "
            + column
            + " = COALESCE("
            + column
            + ", 0) + ? WHERE id = ?",
        millis,
        id);
  }

  public void finish(String id, OperationState state, String message) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET state = ?, finished_at = NOW(3), message = ? WHERE id = ?",
        state.name(),
        message,
        id);
  }

  public Optional<OperationSummary> find(String id) throws SQLException {
    OperationSummary.Counts counts = counts(id);
    return Sql.queryOne(
        dataSource,
        "SELECT id, state, phase, source, request, created_at, started_at, finished_at,"
            + " provisioning_ms, data_ms, shares_ms, message FROM restore_operation WHERE id = ?",
        rs ->
            new OperationSummary(
                rs.getString(1),
                OperationState.valueOf(rs.getString(2)),
                rs.getString(3) == null ? null : Phase.valueOf(rs.getString(3)),
                rs.getString(4),
                Json.MAPPER.readValue(rs.getString(5), RestoreRequest.class),
                instant(rs.getTimestamp(6)),
                instant(rs.getTimestamp(7)),
                instant(rs.getTimestamp(8)),
                nullableLong(rs, 9),
                nullableLong(rs, 10),
                nullableLong(rs, 11),
                rs.getString(12),
                counts),
        id);
  }

  private OperationSummary.Counts counts(String id) throws SQLException {
    record BySeverity(String severity, long count) {}
    long errors = 0;
    long warnings = 0;
    for (BySeverity row :
        Sql.query(
            dataSource,
            "SELECT severity, COUNT(*) FROM restore_failure WHERE operation_id = ? GROUP BY severity",
            rs -> new BySeverity(rs.getString(1), rs.getLong(2)),
            id)) {
      if ("warning".equals(row.severity())) {
        warnings += row.count();
      } else {
        errors += row.count();
      }
    }
    long errorCount = errors;
    long warningCount = warnings;
    return Sql.queryOne(
            dataSource,
            "SELECT COUNT(*), SUM(state IN ('RESTORED','PARTIAL','FAILED','SKIPPED')),"
                + " SUM(state = 'FAILED'), COALESCE(SUM(items_restored), 0),"
                + " COALESCE(SUM(items_skipped), 0), COALESCE(SUM(items_failed), 0),"
                + " COALESCE(SUM(bytes_restored), 0), COALESCE(SUM(dedup_hits), 0)"
                + " FROM restore_account WHERE operation_id = ?",
            rs ->
                new OperationSummary.Counts(
                    rs.getInt(1),
                    rs.getInt(2),
                    rs.getInt(3),
                    rs.getLong(4),
                    rs.getLong(5),
                    rs.getLong(6),
                    rs.getLong(7),
                    rs.getLong(8),
                    errorCount,
                    warningCount),
            id)
        .orElseThrow();
  }

  /** Operations, newest first; {@code state} null for all. */
  public List<String> list(OperationState state, int offset, int limit) throws SQLException {
    String sql =
        "SELECT id FROM restore_operation"
            + (state == null ? "" : " WHERE state = ?")
            + " ORDER BY created_at DESC, id LIMIT ? OFFSET ?";
    return state == null
        ? Sql.query(dataSource, sql, rs -> rs.getString(1), limit, offset)
        : Sql.query(dataSource, sql, rs -> rs.getString(1), state.name(), limit, offset);
  }

  /** Adds an account to the operation (a resumed operation keeps the row it has). */
  public void addAccount(String operationId, String sourceAccountId, String accountName)
      throws SQLException {
    Sql.update(
        dataSource,
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
    Sql.update(
        dataSource,
        "UPDATE restore_account SET account_name = ?, account_id = ?, account_uuid = ?,"
            + " mailbox_id = ?, source_ref = ?, fresh_mailbox = ?, state = ?"
            + " WHERE operation_id = ? AND source_account_id = ?",
        accountName,
        accountId,
        accountUuid,
        mailboxId,
        sourceRef,
        freshMailbox,
        state.name(),
        operationId,
        sourceAccountId);
  }

  /**
   * Claims an account for this instance: succeeds when nobody holds it, this instance already does,
   * or the holder's lease expired (it died). The lease is extended by every cluster commit.
   */
  public boolean claimAccount(
      String operationId, String sourceAccountId, String owner, int leaseSeconds)
      throws SQLException {
    return Sql.update(
            dataSource,
            "UPDATE restore_account SET lease_owner = ?, lease_until = NOW(3) + INTERVAL ? SECOND,"
                + " started_at = COALESCE(started_at, NOW(3)),"
                + " state = IF(state = 'PROVISIONED', 'RESTORING', state)"
                + " WHERE operation_id = ? AND source_account_id = ?"
                + " AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < NOW(3))",
            owner,
            leaseSeconds,
            operationId,
            sourceAccountId,
            owner)
        == 1;
  }

  /** Sets an account's final (or new) state and releases it. */
  public void finishAccount(
      String operationId, String sourceAccountId, AccountState state, String error)
      throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_account SET state = ?, error = ?, lease_owner = NULL, lease_until = NULL,"
            + " finished_at = IF(?, NOW(3), NULL) WHERE operation_id = ? AND source_account_id = ?",
        state.name(),
        error,
        state.isDone(),
        operationId,
        sourceAccountId);
  }

  /** Failures of severity error recorded for one account of an operation. */
  public long errorCount(String operationId, String sourceAccountId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT COUNT(*) FROM restore_failure WHERE operation_id = ?"
                + " AND source_account_id = ? AND severity = 'error'",
            rs -> rs.getLong(1),
            operationId,
            sourceAccountId)
        .orElse(0L);
  }

  public List<AccountProgress> accounts(String operationId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT "
            + ACCOUNT_COLUMNS
            + " FROM restore_account WHERE operation_id = ?"
            + " ORDER BY account_name",
        OperationStore::account,
        operationId);
  }

  private static AccountProgress account(ResultSet rs) throws SQLException {
    return new AccountProgress(
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
        rs.getString(17));
  }

  public List<FailureRecord> failures(String operationId, int offset, int limit)
      throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT id, source_account_id, item_id, phase, severity, reason, location, detail,"
            + " created_at FROM restore_failure WHERE operation_id = ? ORDER BY id LIMIT ? OFFSET ?",
        rs ->
            new FailureRecord(
                rs.getLong(1),
                rs.getString(2),
                rs.getInt(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                instant(rs.getTimestamp(9))),
        operationId,
        limit,
        offset);
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
