package org.mailrestore.restore;

import java.sql.SQLException;
import java.util.List;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.FailureRow;

/**
 * The engine's records and how it writes them: through database outages ({@link DatabaseRetry}),
 * under this instance's leases, counted in the metrics.
 */
record Records(
    Bookkeeping books,
    DatabaseRetry db,
    RestoreMetrics metrics,
    String instanceId,
    int leaseSeconds) {

  /** A failure row, counted in the metrics as it is made. */
  FailureRow failure(
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      String detail) {
    metrics.failure(reason);
    return FailureRow.of(phase, reason, sourceAccountId, itemId, location, detail);
  }

  /** Records failures that belong to no cluster. */
  void record(String operationId, List<FailureRow> failures) throws SQLException {
    db.call(
        "recording failures",
        () -> {
          books.failures().record(operationId, failures);
          return null;
        });
  }

  void record(
      String operationId,
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      String detail)
      throws SQLException {
    record(operationId, List.of(failure(phase, reason, sourceAccountId, itemId, location, detail)));
  }
}
