package org.mailrestore.restore.bookkeeping;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.Lease;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.bookkeeping.AccountStore.Counters;
import org.mailrestore.restore.bookkeeping.IdMap.Mapping;
import org.mailrestore.restore.bookkeeping.PendingMounts.PendingMount;
import org.mailrestore.sql.Sql;

/**
 * The bookkeeping of one cluster, as a target fills it: id mappings, mountpoints waiting for phase
 * 3, failures, the checkpoint and the account's counters, written in one transaction (the target's
 * own, for a target in the same database). One record per attempt: a retried cluster starts a new
 * one.
 */
public final class ClusterRecord implements ClusterJournal {

  /**
   * Who the cluster belongs to and what the engine knew of it before the target wrote it.
   *
   * @param claim who holds the account, checked by the database as the account's counters are added
   *     (decision 0053)
   * @param lease the same claim as this instance sees it: checked again once the account's row is
   *     locked, just before the commit (decision 0049)
   * @param skipped items left out because an earlier run restored them
   * @param failed items the engine could not hand to the target (undecodable, folder missing)
   * @param failures the failures and repairs the engine found
   */
  public record Header(
      String operationId,
      String sourceAccountId,
      Claim claim,
      Lease lease,
      IdSpace idSpace,
      int seq,
      long skipped,
      long failed,
      List<FailureRow> failures) {

    public Header {
      failures = List.copyOf(failures);
    }
  }

  private final DataSource dataSource;
  private final Header header;
  private final RestoreMetrics metrics;
  private final List<Mapping> mappings = new ArrayList<>();
  private final List<PendingMount> mounts = new ArrayList<>();
  private final List<FailureRow> failures;
  private final List<ItemType> restoredTypes = new ArrayList<>();
  private long restored;
  private long skipped;
  private long failed;
  private long bytes;
  private long dedupHits;
  private int rows;

  public ClusterRecord(DataSource dataSource, Header header, RestoreMetrics metrics) {
    this.dataSource = dataSource;
    this.header = header;
    this.metrics = metrics;
    this.failures = new ArrayList<>(header.failures());
    this.skipped = header.skipped();
    this.failed = header.failed();
  }

  @Override
  public int seq() {
    return header.seq();
  }

  @Override
  public synchronized void restored(FolderToWrite folder, int newId) {
    mappings.add(new Mapping(folder.oldId(), newId));
    if (folder.type() == ItemType.MOUNTPOINT && folder.state().mount() != null) {
      mounts.add(
          new PendingMount(
              header.idSpace().targetKey(),
              newId,
              folder.oldId(),
              folder.state().mount().ownerAccountId(),
              folder.state().mount().remoteFolderId()));
    }
    counted(folder.type(), 0);
  }

  @Override
  public synchronized void restored(TagToWrite tag, int newId) {
    mappings.add(new Mapping(tag.oldId(), newId));
    counted(ItemType.TAG, 0);
  }

  @Override
  public synchronized void restored(ItemToWrite item, int newId) {
    mappings.add(new Mapping(item.oldId(), newId));
    counted(item.type(), item.state().size());
  }

  private void counted(ItemType type, long size) {
    restored++;
    bytes += size;
    rows++;
    restoredTypes.add(type);
  }

  @Override
  public synchronized void sameAs(TagToWrite tag, int existingId) {
    mappings.add(new Mapping(tag.oldId(), existingId));
    skipped++;
  }

  @Override
  public synchronized void mapped(int oldId, int newId) {
    mappings.add(new Mapping(oldId, newId));
  }

  @Override
  public synchronized void renamed(FolderToWrite folder, String name, String detail) {
    metrics.failure(FailureReason.FOLDER_RENAMED);
    failures.add(
        FailureRow.of(
            Phase.DATA,
            FailureReason.FOLDER_RENAMED,
            header.sourceAccountId(),
            folder.oldId(),
            folder.location(),
            "restored as " + name + ": " + detail));
  }

  @Override
  public synchronized void failed(ItemToWrite item, FailureReason reason, String detail) {
    metrics.failure(reason);
    metrics.items("failed", item.type(), 1);
    failures.add(
        FailureRow.of(
            Phase.DATA, reason, header.sourceAccountId(), item.oldId(), item.location(), detail));
    failed++;
  }

  @Override
  public synchronized void dedupHits(long count) {
    dedupHits += count;
  }

  @Override
  public synchronized void writeIn(java.sql.Connection c) throws SQLException {
    IdMap.insert(c, header.idSpace(), mappings);
    PendingMounts.insert(c, header.operationId(), mounts);
    FailureStore.insert(c, header.operationId(), failures);
    Checkpoints.commit(c, header.operationId(), header.sourceAccountId(), header.seq(), rows);
    // Last, so the account row is locked only for the commit itself.
    AccountStore.addCounters(
        c, header.operationId(), header.sourceAccountId(), header.claim(), counters());
    // Past its deadline here, the claim may be another instance's to take any moment now; no claim
    // can change while the row is locked.
    header.lease().check();
  }

  @Override
  public void commit() throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          writeIn(c);
          return null;
        });
  }

  /** Whether this cluster is committed: what a retry asks after a commit whose answer was lost. */
  public boolean isCommitted() throws SQLException {
    return new Checkpoints(dataSource)
        .isCommitted(header.operationId(), header.sourceAccountId(), header.seq());
  }

  /** Counts what the committed cluster restored, in the metrics. */
  public synchronized void committed() {
    for (ItemType type : restoredTypes) {
      metrics.items("restored", type, 1);
    }
    metrics.bytes(bytes);
    metrics.dedupHits(dedupHits);
  }

  /** The source ids this cluster mapped, with their ids in the target. */
  public synchronized java.util.Map<Integer, Integer> mappings() {
    java.util.Map<Integer, Integer> map = new java.util.HashMap<>();
    mappings.forEach(m -> map.put(m.oldId(), m.newId()));
    return map;
  }

  public synchronized Counters counters() {
    return new Counters(restored, skipped, failed, bytes, dedupHits);
  }
}
