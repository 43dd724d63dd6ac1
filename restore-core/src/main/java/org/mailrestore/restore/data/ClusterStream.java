package org.mailrestore.restore.data;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.IoErrors;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.bookkeeping.FailureRow;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.Workers;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * The second pass over an account's items: the content items, streamed in stored order and cut into
 * clusters (by count and by declared bytes), several in flight. Per cluster: the revision to
 * restore is selected, items an earlier run restored are skipped, each item's folder is found in
 * the folder map, and the target writes the rest. Content that passes only once (an archive) is
 * staged in the target as it passes. A resumed account skips the clusters already committed.
 */
final class ClusterStream {

  /** A cluster also ends when its items declare this many content bytes. */
  static final long MAX_CLUSTER_BYTES = 64L << 20;

  /** An entry read from the stream, with its content when the target took it as it passed. */
  private record Read(
      ItemEntry entry,
      @Nullable Staged staged,
      @Nullable FailureReason stageFailure,
      @Nullable String detail) {}

  private final OperationRun run;
  private final Records records;
  private final Workers workers;
  private final AccountProgress account;
  private final MailboxWriter writer;
  private final ClusterCommit commit;
  private final FolderPass.FolderMap folders;
  private final String sourceId;
  private int @Nullable [] restoredIds; // ascending, read at the first content that passes

  ClusterStream(
      OperationRun run,
      Records records,
      Workers workers,
      AccountProgress account,
      MailboxWriter writer,
      ClusterCommit commit,
      FolderPass.FolderMap folders) {
    this.run = run;
    this.records = records;
    this.workers = workers;
    this.account = account;
    this.writer = writer;
    this.commit = commit;
    this.folders = folders;
    this.sourceId = account.sourceAccountId();
  }

  /** Streams the content in clusters; returns false when stopped before the end. */
  boolean run() throws IOException, SQLException {
    int clusterSize = run.request().effectiveClusterSize();
    ClustersInFlight inFlight =
        new ClustersInFlight(
            workers.concurrency().clustersPerAccount(), workers.io(), records.metrics());
    int seq = 0;
    List<Read> batch = new ArrayList<>(clusterSize);
    long batchBytes = 0;
    Set<ItemType> carried = run.target().contentTypes();
    Map<ItemType, Long> leftOut = new EnumMap<>(ItemType.class);
    try (ItemStream stream = run.source().items(sourceId, ItemType.contents())) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        if (!inScope(entry)) {
          doneWith(entry);
          continue;
        }
        if (entry instanceof ItemEntry.Decoded d && !carried.contains(d.item().type())) {
          if (run.pointInTime().select(d.item()).isPresent()) {
            leftOut.merge(d.item().type(), 1L, Long::sum);
          }
          doneWith(entry);
          continue;
        }
        boolean skipWhole = commit.isCommitted(seq + 1);
        if (!skipWhole && !run.throttle().acquire(1, declaredSize(entry), run.cancel())) {
          return false;
        }
        batch.add(skipWhole ? new Read(entry, null, null, null) : read(entry));
        batchBytes += declaredSize(entry);
        if (batch.size() >= clusterSize || batchBytes >= MAX_CLUSTER_BYTES) {
          seq++;
          if (commit.isCommitted(seq)) {
            doneWith(batch);
          } else if (!submit(inFlight, seq, batch)) {
            return false;
          }
          batch = new ArrayList<>(clusterSize);
          batchBytes = 0;
        }
      }
      if (!batch.isEmpty()) {
        seq++;
        if (commit.isCommitted(seq)) {
          doneWith(batch);
        } else if (!submit(inFlight, seq, batch)) {
          return false;
        }
      }
    } finally {
      inFlight.awaitAll();
      // Every cluster of the account has ended: nothing opens its blobs any more.
      run.source().doneWith(sourceId);
    }
    reportLeftOut(leftOut);
    return !run.cancel().raised();
  }

  /**
   * One warning for the account naming what the target cannot hold, with counts; a resumed run
   * counts the same and the same row is recorded once.
   */
  private void reportLeftOut(Map<ItemType, Long> leftOut) throws SQLException {
    if (leftOut.isEmpty()) {
      return;
    }
    StringBuilder counts = new StringBuilder();
    leftOut.forEach((type, n) -> {
      counts.append(counts.isEmpty() ? "" : ", ").append(n).append(' ').append(type.wireName());
      counts.append(n == 1 ? "" : "s");
      records.metrics().items("not_carried", type, n);
    });
    records.record(
        run.id(),
        List.of(
            records.failure(
                Phase.DATA,
                FailureReason.NOT_CARRIED,
                sourceId,
                0,
                "",
                "the target holds only "
                    + run.target().contentTypes().stream()
                        .map(t -> t.wireName() + "s")
                        .sorted()
                        .collect(java.util.stream.Collectors.joining(", "))
                    + "; left out: "
                    + counts)));
  }

  /** Whether a partial restore (some items, some folders) takes the entry. */
  private boolean inScope(ItemEntry entry) {
    var selection = run.request().selection();
    if (!selection.isPartial()) {
      return true;
    }
    return switch (entry) {
      case ItemEntry.Decoded d -> {
        if (!selection.items().isEmpty() && !selection.items().contains(d.item().id())) {
          yield false;
        }
        Optional<Revision> state = run.pointInTime().select(d.item());
        yield state.isEmpty() || folders.holdsContentOf(state.get().folderId());
      }
      case ItemEntry.Undecodable u -> selection.items().contains(u.itemId());
    };
  }

  /**
   * An entry as read; content that passes now is staged in the target before the stream moves on.
   */
  private Read read(ItemEntry entry) throws SQLException {
    if (!(entry instanceof ItemEntry.Decoded d) || d.passing() == null) {
      return new Read(entry, null, null, null);
    }
    Optional<Revision> state = run.pointInTime().select(d.item());
    if (state.isEmpty() || !d.item().type().hasBlob() || restoredBefore(d.item().id())) {
      return new Read(entry, null, null, null); // nothing to stage (its cluster skips one restored)
    }
    try {
      return new Read(
          entry, writer.stage(d.item().type(), d.passing(), state.get().digest()), null, null);
    } catch (BlobException e) {
      return new Read(entry, null, FailureReason.of(e.reason()), e.getMessage());
    } catch (IOException e) {
      return new Read(
          entry,
          null,
          FailureReason.SOURCE_UNREADABLE,
          d.passing().describe() + ": " + IoErrors.describe(e));
    }
  }

  /**
   * Whether an earlier run restored the item into this mailbox: its content, passing again, is not
   * staged again (a packed volume would keep a second copy nothing refers to, an S3 volume would be
   * sent it again). The ids are read once, at the first content that passes.
   */
  private boolean restoredBefore(int itemId) throws SQLException {
    if (account.fresh()) {
      return false;
    }
    if (restoredIds == null) {
      restoredIds =
          records
              .db()
              .call(
                  "looking up restored items",
                  () -> records.books().idMap().restoredIds(account.provisionedIdSpace()));
    }
    return Arrays.binarySearch(restoredIds, itemId) >= 0;
  }

  private boolean submit(ClustersInFlight inFlight, int seq, List<Read> batch) throws SQLException {
    if (run.cancel().raised()) {
      return false;
    }
    inFlight.submit(() -> {
      try {
        restoreCluster(seq, batch);
      } finally {
        doneWith(batch);
      }
    });
    return true;
  }

  /**
   * Tells the source that these entries' blobs will not be opened again (stored, skipped, failed,
   * or not taken), so that what it holds per item to serve them follows the clusters in flight.
   */
  private void doneWith(ItemEntry entry) {
    if (entry instanceof ItemEntry.Decoded d) {
      run.source().doneWithItems(sourceId, List.of(d.item()));
    }
  }

  private void doneWith(List<Read> reads) {
    List<Item> items = new ArrayList<>(reads.size());
    for (Read read : reads) {
      if (read.entry() instanceof ItemEntry.Decoded d) {
        items.add(d.item());
      }
    }
    if (!items.isEmpty()) {
      run.source().doneWithItems(sourceId, items);
    }
  }

  private static long declaredSize(ItemEntry entry) {
    if (entry instanceof ItemEntry.Decoded d) {
      return d.item().revisions().get(d.item().revisions().size() - 1).size();
    }
    return 0;
  }

  /** An item selected for restore. */
  private record Pending(Item item, Revision state, String location, @Nullable Staged staged) {}

  private void restoreCluster(int seq, List<Read> reads) throws SQLException {
    List<FailureRow> failures = new ArrayList<>();
    List<Pending> pending = new ArrayList<>(reads.size());
    long failed = 0;
    for (Read read : reads) {
      switch (read.entry()) {
        case ItemEntry.Decoded d -> {
          Optional<Revision> state = run.pointInTime().select(d.item());
          if (state.isEmpty()) {
            continue;
          }
          if (read.stageFailure() != null) {
            failures.add(failure(read.stageFailure(), d.item(), d.location(), read.detail()));
            failed++;
          } else {
            pending.add(new Pending(d.item(), state.get(), d.location(), read.staged()));
          }
        }
        case ItemEntry.Undecodable u -> {
          if (u.type() == null || !u.type().isContainer()) {
            failures.add(
                records.failure(
                    Phase.DATA, u.failure(), sourceId, u.itemId(), u.location(), u.reason()));
            records.metrics().items("failed", u.type(), 1);
            failed++;
          }
        }
      }
    }
    long skipped = skipRestored(pending);
    List<ItemToWrite> items = new ArrayList<>(pending.size());
    for (Pending p : pending) {
      Integer folder = folders.get(p.state().folderId());
      if (folder == null) {
        failures.add(
            failure(
                FailureReason.FOLDER_MISSING,
                p.item(),
                p.location(),
                "its folder " + p.state().folderId() + " is not in the backup"));
        failed++;
        continue;
      }
      Revision state =
          p.staged() != null && p.state().digest() == null
              ? p.state().toBuilder().blob(p.staged().size(), p.staged().digest()).build()
              : p.state();
      items.add(
          new ItemToWrite(p.item().id(), p.item().type(), state, folder, p.location(), p.staged()));
    }
    commit.items(new ItemBatch(seq, items, false), commit.header(seq, skipped, failed, failures));
  }

  private FailureRow failure(
      FailureReason reason, Item item, String location, @Nullable String detail) {
    records.metrics().items("failed", item.type(), 1);
    return records.failure(Phase.DATA, reason, sourceId, item.id(), location, detail);
  }

  /** Drops the items an earlier run restored into this mailbox; returns how many. */
  private long skipRestored(List<Pending> pending) throws SQLException {
    if (account.fresh() || pending.isEmpty()) {
      return 0; // a mailbox this operation created holds only committed clusters, skipped whole
    }
    List<Integer> oldIds = pending.stream().map(p -> p.item().id()).toList();
    Map<Integer, Integer> done =
        records
            .db()
            .call(
                "looking up restored items",
                () -> records.books().idMap().mapped(account.provisionedIdSpace(), oldIds));
    long skipped = 0;
    for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (done.containsKey(p.item().id())) {
        it.remove();
        skipped++;
        records.metrics().items("skipped", p.item().type(), 1);
      }
    }
    return skipped;
  }
}
