package org.mailrestore.restore.run;

import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.FailureRow;

/**
 * The engine's records and how it writes them: through database outages ({@link DatabaseRetry}),
 * under this instance's leases, counted in the metrics.
 */
public record Records(
    Bookkeeping books,
    DatabaseRetry db,
    RestoreMetrics metrics,
    String instanceId,
    int leaseSeconds,
    HeldLeases leases) {

  private static final int MAX_MESSAGE = 500;

  /** A failure row, counted in the metrics as it is made. */
  public FailureRow failure(
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      @Nullable String detail) {
    metrics.failure(reason);
    return FailureRow.of(phase, reason, sourceAccountId, itemId, location, detail);
  }

  /** Records failures that belong to no cluster. */
  public void record(String operationId, List<FailureRow> failures) throws SQLException {
    db.run("recording failures", () -> books.failures().record(operationId, failures));
  }

  public void record(
      String operationId,
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      @Nullable String detail)
      throws SQLException {
    record(operationId, List.of(failure(phase, reason, sourceAccountId, itemId, location, detail)));
  }

  /** The error's class and message, bounded (a message may quote a long value). */
  public static String describe(Throwable e) {
    String message = e.getMessage();
    String text =
        e.getClass().getSimpleName()
            + (message == null || message.isBlank() ? "" : ": " + message.strip());
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "...";
  }
}
