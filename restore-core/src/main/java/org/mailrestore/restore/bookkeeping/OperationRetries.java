package org.mailrestore.restore.bookkeeping;

import java.sql.SQLException;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/**
 * The runs of an operation stopped by database errors or Errors of the JVM: how many since it last
 * ended or was asked to resume, and until when the next run is held back ({@link
 * OperationStore#orphaned} waits for it). {@link OperationStore#finish} and {@link
 * OperationStore#requeue} start the count again.
 */
public final class OperationRetries {

  private final DataSource dataSource;

  public OperationRetries(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Counts a stopped run and holds the next one back for {@code delaySeconds}, the operation's
   * message saying why. Returns the number of such runs so far, this one included.
   */
  public int defer(String id, String message, long delaySeconds) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_operation SET attempts = attempts + 1,"
            + " retry_after = NOW(3) + INTERVAL ? SECOND, message = ? WHERE id = ?",
        delaySeconds,
        Sql.clip(message, Sql.TEXT_CHARS),
        id);
    return attempts(id);
  }

  /** Runs of the operation stopped by errors since it last ended or was asked to resume. */
  public int attempts(String id) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT attempts FROM restore_operation WHERE id = ?",
            rs -> rs.getInt(1),
            id)
        .orElse(0);
  }
}
