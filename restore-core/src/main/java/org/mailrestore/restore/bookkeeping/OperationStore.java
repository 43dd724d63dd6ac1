package org.mailrestore.restore.bookkeeping;

import static org.mailrestore.sql.Sql.nullableLong;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.sql.Sql;
import tools.jackson.core.JacksonException;

/**
 * Restore operations in the bookkeeping database: what was asked, their state and phase, who
 * coordinates them, cancel requests, and their counters summed over their accounts. With {@link
 * AccountStore}, {@link FailureStore}, {@link IdMap}, {@link Checkpoints} and {@link
 * PendingMounts}, everything an operation needs to be reported, resumed or taken over by another
 * instance.
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

  /** Marks the operation running (again), clearing a cancel request that a resume overrides. */
  public void markRunning(String id) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET state = ?, started_at = COALESCE(started_at, NOW(3)),"
            + " finished_at = NULL, message = NULL, cancel_requested = FALSE WHERE id = ?",
        OperationState.RUNNING.name(),
        id);
  }

  /**
   * Puts a cancelled or failed operation back in the queue, so that whoever looks at it between a
   * resume request and the run sees it pending rather than ended.
   */
  public void requeue(String id) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET state = ?, finished_at = NULL, message = NULL,"
            + " cancel_requested = FALSE, attempts = 0, retry_after = NULL"
            + " WHERE id = ? AND state IN (?, ?)",
        OperationState.QUEUED.name(),
        id,
        OperationState.CANCELLED.name(),
        OperationState.FAILED.name());
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

  /** A source's identity as its column holds it. */
  public static String recordable(String identity) {
    return Sql.clip(identity, 512);
  }

  /**
   * Records what the operation's source is, unless its first run did already; returns what is
   * recorded.
   */
  public String recordSourceIdentity(String id, String identity) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET source_identity = ? WHERE id = ? AND source_identity IS NULL",
        recordable(identity),
        id);
    return Sql.queryOne(
            dataSource,
            "SELECT source_identity FROM restore_operation WHERE id = ?",
            rs -> rs.getString(1),
            id)
        .orElseThrow(() -> new SQLException("no operation " + id));
  }

  /** Ends the operation: its accounts are free for others, its retry count starts again. */
  public void finish(String id, OperationState state, @Nullable String message)
      throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET state = ?, finished_at = NOW(3), message = ?, attempts = 0,"
            + " retry_after = NULL WHERE id = ?",
        state.name(),
        Sql.clip(message, Sql.TEXT_CHARS),
        id);
    Sql.update(dataSource, "DELETE FROM restore_claim WHERE operation_id = ?", id);
  }

  /** Shows the operation waiting (QUEUED) and why: the accounts another one is restoring. */
  public void waiting(String id, String why) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET state = ?, message = ? WHERE id = ? AND state IN (?, ?)",
        OperationState.QUEUED.name(),
        Sql.clip(why, Sql.TEXT_CHARS),
        id,
        OperationState.QUEUED.name(),
        OperationState.RUNNING.name());
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
                request(rs.getString(5)),
                java.util.Objects.requireNonNull(instant(rs.getTimestamp(6))),
                instant(rs.getTimestamp(7)),
                instant(rs.getTimestamp(8)),
                nullableLong(rs, 9),
                nullableLong(rs, 10),
                nullableLong(rs, 11),
                rs.getString(12),
                counts),
        id);
  }

  /**
   * The stored request, or null when it cannot be read back (stored by another version, or holding
   * a value since refused): such an operation can only be failed, never run.
   */
  private static @Nullable RestoreRequest request(String json) {
    try {
      return Json.MAPPER.readValue(json, RestoreRequest.class);
    } catch (JacksonException | IllegalArgumentException e) {
      return null;
    }
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

  /** How many operations are in each state. */
  public Map<OperationState, Long> countByState() throws SQLException {
    return countsByState(
        OperationState.class, "SELECT state, COUNT(*) FROM restore_operation GROUP BY state");
  }

  /** How many accounts of the operations not yet ended are in each state. */
  public Map<AccountState, Long> accountsOfUnfinishedByState() throws SQLException {
    return countsByState(
        AccountState.class,
        "SELECT a.state, COUNT(*) FROM restore_account a JOIN restore_operation o"
            + " ON o.id = a.operation_id WHERE o.state IN ('QUEUED', 'RUNNING')"
            + " GROUP BY a.state");
  }

  /** A {@code SELECT state, COUNT(*) ... GROUP BY state} as a map by state. */
  private <S extends Enum<S>> Map<S, Long> countsByState(Class<S> states, String sql)
      throws SQLException {
    Map<S, Long> counts = new EnumMap<>(states);
    for (Map.Entry<String, Long> row :
        Sql.query(dataSource, sql, rs -> Map.entry(rs.getString(1), rs.getLong(2)))) {
      counts.put(Enum.valueOf(states, row.getKey()), row.getValue());
    }
    return counts;
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

  /** What a cancelled operation's message says. */
  public static final String CANCELLED_MESSAGE = "cancelled; resume to continue";

  /**
   * Asks every instance working on the operation to stop; it stays resumable. An operation nobody
   * runs (queued, or interrupted) is marked CANCELLED at once, and this returns true.
   *
   * @throws NoSuchElementException when there is no such operation
   * @throws IllegalStateException when the operation has ended already
   */
  public boolean cancel(String operationId) throws SQLException {
    return Sql.inTransaction(
        dataSource,
        c -> {
          OperationState state;
          boolean unattended;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT state, coordinator IS NULL OR coordinator_until < NOW(3)"
                      + " FROM restore_operation WHERE id = ? FOR UPDATE")) {
            Sql.bind(ps, operationId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new NoSuchElementException("no operation " + operationId);
              }
              state = OperationState.valueOf(rs.getString(1));
              unattended = rs.getBoolean(2);
            }
          }
          if (state.isFinished()) {
            throw new IllegalStateException(
                "operation " + operationId + " is " + state + "; there is nothing to cancel");
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  unattended
                      ? "UPDATE restore_operation SET cancel_requested = TRUE, state = 'CANCELLED',"
                          + " finished_at = NOW(3), message = ? WHERE id = ?"
                      : "UPDATE restore_operation SET cancel_requested = TRUE WHERE id = ?")) {
            if (unattended) {
              Sql.bind(ps, CANCELLED_MESSAGE, operationId);
            } else {
              Sql.bind(ps, operationId);
            }
            ps.executeUpdate();
          }
          return unattended;
        });
  }

  public boolean cancelRequested(String operationId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT cancel_requested FROM restore_operation WHERE id = ?",
            rs -> rs.getBoolean(1),
            operationId)
        .orElse(false);
  }

  static @Nullable Instant instant(@Nullable Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
