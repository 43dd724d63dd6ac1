package org.mailrestore.mailstore;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.IoErrors;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.kind.FailureReason;

/**
 * A cluster's blobs, into the volume: each digest the volume lacks is copied once (in parallel,
 * within the engine's bounds on copies in flight), verified while it streams; then the volume is
 * synced and the blobs recorded, so no row can commit before its blob is durable. A digest the
 * volume holds already is a dedup hit; the volume is asked only for digests it may hold ({@link
 * RecordedDigests}). Content that passes (an mbox, an archive) was staged as it passed ({@link
 * PassingContent}): its cluster collects the writes, and asks for the content held for it with its
 * other digests.
 */
final class BlobTransfer {

  private final WritableVolume target;
  private final WriteContext context;
  private final PassingContent passing;

  BlobTransfer(WritableVolume target, WriteContext context, PassingContent passing) {
    this.target = target;
    this.context = context;
    this.passing = passing;
  }

  /**
   * A blob copied (or taken from another cluster's write of it: {@code shared}, a dedup hit), or
   * why not.
   */
  private record Copied(StoredBlob blob, boolean shared, FailureReason reason, String detail) {

    static Copied of(WritesInFlight.Written w) {
      return new Copied(w.blob(), w.shared(), null, null);
    }

    /** An item's blob not copied: a bad blob by its reason, any other I/O error as BLOB_IO. */
    static Copied failed(IOException e, String context) {
      return e instanceof BlobException bad
          ? new Copied(null, false, FailureReason.of(bad.reason()), bad.getMessage())
          : new Copied(null, false, FailureReason.BLOB_IO, context + IoErrors.describe(e));
    }
  }

  /**
   * Puts the blobs of these items in the volume (those staged as they passed are there already, but
   * for content held for this lookup) and returns where each item's blob is; an item whose blob
   * failed is told to the journal and left out.
   */
  Map<ItemToWrite, StoredBlob> transfer(List<ItemToWrite> items, ClusterJournal journal)
      throws SQLException {
    long window = target.flights().open(); // before the cluster asks the database
    try {
      return transferAll(items, journal);
    } finally {
      target.flights().close(window);
      for (ItemToWrite item : items) {
        if (item.staged() != null && item.staged().handle() instanceof PassingContent.Held held) {
          passing.release(
              held); // the bytes stay with the item, should its cluster be written again
        }
      }
    }
  }

  private Map<ItemToWrite, StoredBlob> transferAll(List<ItemToWrite> items, ClusterJournal journal)
      throws SQLException {
    // By identity: an item's own hash walks its whole revision, a cost per item and per lookup.
    Map<ItemToWrite, StoredBlob> result = new IdentityHashMap<>(items.size());
    Map<BlobDigest, List<ItemToWrite>> byDigest = new LinkedHashMap<>();
    List<StoredBlob> newBlobs = new ArrayList<>();
    List<ItemToWrite> staged = new ArrayList<>();
    for (ItemToWrite item : items) {
      if (!item.hasContent()) {
        continue;
      }
      if (item.staged() == null) {
        byDigest.computeIfAbsent(item.state().digest(), d -> new ArrayList<>()).add(item);
      } else if (item.staged().handle() instanceof PassingContent.Held) {
        byDigest.computeIfAbsent(item.staged().digest(), d -> new ArrayList<>()).add(item);
      } else {
        staged.add(item);
      }
    }
    long dedupHits = 0;
    if (!byDigest.isEmpty()) {
      Map<BlobDigest, StoredBlob> present =
          target.rows().present(target.id(), target.recorded().mightHold(byDigest.keySet()));
      List<Map.Entry<BlobDigest, List<ItemToWrite>>> missing = new ArrayList<>();
      for (Map.Entry<BlobDigest, List<ItemToWrite>> e : byDigest.entrySet()) {
        if (!present.containsKey(e.getKey())) {
          missing.add(e);
        }
      }
      Map<BlobDigest, Copied> copies = copyAll(missing);
      for (Map.Entry<BlobDigest, List<ItemToWrite>> e : byDigest.entrySet()) {
        BlobDigest digest = e.getKey();
        List<ItemToWrite> users = e.getValue();
        StoredBlob blob = present.get(digest);
        if (blob == null) {
          Copied copied = copies.get(digest);
          if (copied.blob() == null) {
            users.forEach(u -> journal.failed(u, copied.reason(), copied.detail()));
            continue;
          }
          blob = copied.blob();
          newBlobs.add(blob); // recorded here too when shared: the other cluster may never commit
          dedupHits += copied.shared() ? users.size() : users.size() - 1;
        } else {
          dedupHits += users.size();
        }
        for (ItemToWrite u : users) {
          // Content that passed was counted as it passed; its declared size is only the source's.
          if (u.staged() == null && u.state().size() != blob.rawSize()) {
            journal.failed(
                u,
                FailureReason.SIZE_MISMATCH,
                "it declares "
                    + u.state().size()
                    + " bytes but its blob "
                    + digest
                    + " has "
                    + blob.rawSize());
          } else {
            result.put(u, blob);
          }
        }
      }
    }
    for (ItemToWrite item : staged) {
      Copied written = collect(item.staged());
      if (written.blob() == null) {
        journal.failed(item, written.reason(), written.detail());
      } else {
        result.put(item, written.blob());
        newBlobs.add(written.blob());
        dedupHits += written.shared() ? 1 : 0;
      }
    }
    journal.dedupHits(dedupHits);
    if (!newBlobs.isEmpty()) {
      try {
        target.volume().sync();
      } catch (IOException e) {
        throw new SQLException("cannot make the cluster's blobs durable: " + e.getMessage(), e);
      }
      RecordedDigests.Recording recording = target.recorded().recording(newBlobs);
      long inserted;
      try {
        inserted = target.rows().record(target.id(), newBlobs);
      } catch (SQLException | RuntimeException e) {
        recording.failed();
        throw e;
      }
      recording.recorded(inserted);
      target.flights().recorded(newBlobs);
    }
    return result;
  }

  /**
   * Copies these blobs, each once, with no more copiers than the content has turns: a copier per
   * blob would park a cluster's thousand virtual threads on the turns, their stacks on the heap for
   * the collector to copy.
   */
  private Map<BlobDigest, Copied> copyAll(List<Map.Entry<BlobDigest, List<ItemToWrite>>> blobs)
      throws SQLException {
    Copied[] copied = new Copied[blobs.size()];
    AtomicInteger next = new AtomicInteger();
    Callable<Void> copier =
        () -> {
          for (int i = next.getAndIncrement(); i < copied.length; i = next.getAndIncrement()) {
            Map.Entry<BlobDigest, List<ItemToWrite>> blob = blobs.get(i);
            copied[i] = copy(blob.getKey(), blob.getValue());
          }
          return null;
        };
    List<Future<Void>> copiers = new ArrayList<>();
    for (int c = Math.min(copied.length, context.content().turns()); c > 0; c--) {
      copiers.add(context.io().submit(copier));
    }
    try {
      for (Future<Void> running : copiers) {
        await(running);
      }
    } finally {
      next.set(copied.length); // after a failure, the other copiers stop at their next blob
    }
    Map<BlobDigest, Copied> byDigest = new HashMap<>(blobs.size() * 2);
    for (int i = 0; i < copied.length; i++) {
      byDigest.put(blobs.get(i).getKey(), copied[i]);
    }
    return byDigest;
  }

  private static void await(Future<Void> future) throws SQLException {
    try {
      future.get();
    } catch (ExecutionException e) {
      throw taskFailure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while copying blobs", e);
    }
  }

  /**
   * The failure of a task that is not one item's: unchecked causes are thrown as they are (an Error
   * stays a crash, a fault fails its account), the others returned to be thrown.
   */
  private static SQLException taskFailure(ExecutionException e) {
    switch (e.getCause()) {
      case SQLException sql -> {
        return sql;
      }
      case RuntimeException unchecked -> throw unchecked;
      case Error error -> throw error;
      default -> {
        return new SQLException(e.getCause());
      }
    }
  }

  /**
   * Copies one blob, within the engine's bounds on copies in flight; or writes the content one of
   * its items holds.
   */
  private Copied copy(BlobDigest digest, List<ItemToWrite> users) throws InterruptedException {
    for (ItemToWrite u : users) {
      if (u.staged() != null && u.staged().handle() instanceof PassingContent.Held held) {
        try {
          return Copied.of(target.writeOnce(digest, held.bytes()));
        } catch (IOException e) {
          return Copied.failed(e, "not written to the volume: ");
        }
      }
    }
    long size = users.get(0).state().size();
    try {
      // Another cluster's write of the digest is waited for before a turn is taken, not in one.
      return Copied.of(
          target
              .flights()
              .once(
                  digest,
                  () ->
                      context
                          .content()
                          .read(digest, size, in -> target.volume().write(digest, size, in))));
    } catch (IOException e) {
      return Copied.failed(e, "blob " + digest + ": ");
    }
  }

  /** The end of a staged write: the blob, or why not. */
  @SuppressWarnings("unchecked")
  private static Copied collect(Staged staged) throws SQLException {
    try {
      return Copied.of(((Future<WritesInFlight.Written>) staged.handle()).get());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        return Copied.failed(io, "not written to the volume: ");
      }
      throw taskFailure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while writing staged content", e);
    }
  }
}
