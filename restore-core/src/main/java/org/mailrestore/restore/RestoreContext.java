package org.mailrestore.restore;

import java.sql.SQLException;
import java.util.List;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.PointInTime;
import org.mailrestore.mailstore.FailureRow;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.ProvisioningStore;
import org.mailrestore.mailstore.SharesStore;
import org.mailrestore.mailstore.VolumeStore;

/** What every phase of one running operation works with. */
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
    int leaseSeconds) {

  PointInTime pointInTime() {
    return new PointInTime(request.asOf());
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
        phase.name().toLowerCase(java.util.Locale.ROOT),
        reason.isWarning() ? FailureRow.Severity.WARNING : FailureRow.Severity.ERROR,
        reason.name(),
        location,
        detail);
  }

  /** Records failures that belong to no cluster. */
  void record(List<FailureRow> failures) throws SQLException {
    mailboxes.recordFailures(operationId, failures);
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
