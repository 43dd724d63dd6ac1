package org.mailrestore.restore;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.mailstore.FailureRow;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.ProvisioningStore;
import org.mailrestore.mailstore.SharesStore;
import org.mailrestore.mailstore.VolumeStore;

/**
 * What every phase of one running operation works with.
 *
 * @param concurrency the bounds for this operation (the request may lower the engine's)
 * @param blobPermits blob copies in flight, shared by all operations of the engine
 * @param largePermits copies of large blobs in flight (they hold bigger buffers)
 * @param io runs accounts, clusters and blob copies (virtual threads; the permits bound them)
 */
record RestoreContext(
    String operationId,
    RestoreRequest request,
    BackupReader backup,
    RestoreTarget target,
    OperationStore operations,
    ProvisioningStore provisioning,
    MailboxStore mailboxes,
    VolumeStore volumes,
    SharesStore shares,
    RestoreMetrics metrics,
    String instanceId,
    int leaseSeconds,
    Concurrency concurrency,
    Semaphore blobPermits,
    Semaphore largePermits,
    ExecutorService io,
    CancelSignal cancel,
    DatabaseRetry db) {

  PointInTime pointInTime() {
    return request.pointInTime();
  }

  /** A failure row, counted in the metrics as it is made. */
  FailureRow failure(
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      String detail) {
    metrics.failure(reason);
    return new FailureRow(
        sourceAccountId,
        itemId,
        phase.name().toLowerCase(Locale.ROOT),
        reason.isWarning() ? FailureRow.Severity.WARNING : FailureRow.Severity.ERROR,
        reason.name(),
        location,
        detail);
  }

  /** Records failures that belong to no cluster. */
  void record(List<FailureRow> failures) throws SQLException {
    db.call(
        "recording failures",
        () -> {
          mailboxes.recordFailures(operationId, failures);
          return null;
        });
  }

  void record(
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      String detail)
      throws SQLException {
    record(List.of(failure(phase, reason, sourceAccountId, itemId, location, detail)));
  }
}
