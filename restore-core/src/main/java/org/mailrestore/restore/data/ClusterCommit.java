package org.mailrestore.restore.data;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.bookkeeping.ClusterRecord;
import org.mailrestore.restore.run.DatabaseRetry;
import org.mailrestore.restore.run.HeldLeases;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.TargetFailure;

/**
 * Commits an account's clusters through the target, each with a fresh {@link ClusterRecord}, and
 * rides out what can be ridden out: a database outage is retried; a commit whose answer was lost is
 * recognised by its checkpoint, so a cluster is never written twice. For a target whose writes do
 * not commit with the bookkeeping, a cluster's start is recorded first, and a cluster retried or
 * found started by an earlier run is written in doubt.
 */
final class ClusterCommit {

  /** MariaDB's error code for a duplicate unique key. */
  private static final int DUPLICATE_KEY = 1062;

  private final OperationRun run;
  private final Records records;
  private final AccountProgress account;
  private final MailboxWriter writer;
  private final boolean atomic;
  private final Set<Integer> committed;
  private final Set<Integer> inDoubt;
  private final HeldLeases.Held lease;

  ClusterCommit(
      OperationRun run,
      Records records,
      AccountProgress account,
      MailboxWriter writer,
      HeldLeases.Held lease)
      throws SQLException {
    this.run = run;
    this.records = records;
    this.account = account;
    this.writer = writer;
    this.lease = lease;
    this.atomic = run.target().atomicCommits();
    String sourceId = account.sourceAccountId();
    this.committed =
        records
            .db()
            .call(
                "reading checkpoints",
                () -> records.books().checkpoints().committed(run.id(), sourceId));
    this.inDoubt =
        atomic
            ? Set.of()
            : records
                .db()
                .call(
                    "reading clusters in flight at a stop",
                    () -> records.books().checkpoints().inDoubt(run.id(), sourceId));
  }

  /** Whether an earlier run committed this cluster (it is skipped whole). */
  boolean isCommitted(int seq) {
    return committed.contains(seq);
  }

  /** The header every cluster of this account starts from. */
  ClusterRecord.Header header(
      int seq,
      long skipped,
      long failed,
      java.util.List<org.mailrestore.restore.bookkeeping.FailureRow> failures) {
    return new ClusterRecord.Header(
        run.id(),
        account.sourceAccountId(),
        lease.claim(),
        lease,
        account.provisionedIdSpace(),
        seq,
        skipped,
        failed,
        failures);
  }

  /** Writes and commits cluster 0: the account's folders and tags. */
  ClusterRecord folders(FolderBatch batch, ClusterRecord.Header header) throws SQLException {
    return write(header, (record, retry) -> writer.writeFolders(batch, record));
  }

  /** Writes and commits a cluster of content. */
  ClusterRecord items(ItemBatch batch, ClusterRecord.Header header) throws SQLException {
    return write(
        header,
        (record, retry) ->
            writer.writeItems(
                retry || inDoubt.contains(batch.seq()) ? batch.asInDoubt() : batch, record));
  }

  @FunctionalInterface
  private interface Writing {
    void write(ClusterRecord record, boolean retry) throws SQLException, IOException;
  }

  private ClusterRecord write(ClusterRecord.Header header, Writing writing) throws SQLException {
    int seq = header.seq();
    lease.check(); // a cluster starts only under a lease this instance still holds
    if (!atomic) {
      records
          .db()
          .run(
              "recording a cluster's start",
              () ->
                  records.books().checkpoints().started(run.id(), account.sourceAccountId(), seq));
    }
    long started = System.nanoTime();
    ClusterRecord[] last = new ClusterRecord[1];
    int[] attempts = {0};
    records
        .db()
        .run(
            "committing cluster " + seq + " of " + account.accountName(),
            () -> {
              lease.check();
              ClusterRecord record =
                  new ClusterRecord(records.books().dataSource(), header, records.metrics());
              last[0] = record;
              try {
                TargetFailure.run(() -> writing.write(record, attempts[0]++ > 0));
              } catch (SQLException e) {
                if (!DatabaseRetry.isTransient(e)) {
                  // Refused, a duplicate key say: by another writer of the account when its claim
                  // is gone, which ends this claim's work, not the account (decision 0052).
                  confirmClaim(e);
                }
                // The connection may have died after the commit went through: the checkpoint
                // row says whether it did, so a retry never writes a cluster twice.
                if ((DatabaseRetry.isTransient(e) || e.getErrorCode() == DUPLICATE_KEY)
                    && record.isCommitted()) {
                  return;
                }
                throw e;
              }
            });
    last[0].committed();
    records.metrics().clusterCommit().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    return last[0];
  }

  /**
   * Throws {@link LeaseLostException} when this claim no longer holds the account: in memory (let
   * go, or past its deadline) or in the database (another instance took it over).
   */
  private void confirmClaim(SQLException refusal) throws SQLException {
    lease.check();
    if (!records.books().accounts().isHeldBy(run.id(), account.sourceAccountId(), lease.claim())) {
      LeaseLostException lost =
          new LeaseLostException(
              "account "
                  + account.sourceAccountId()
                  + " was taken over by another instance while this one wrote it: "
                  + refusal.getMessage());
      lost.initCause(refusal);
      throw lost;
    }
  }
}
