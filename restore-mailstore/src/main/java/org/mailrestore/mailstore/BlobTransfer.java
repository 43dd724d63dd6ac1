package org.mailrestore.mailstore;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.IoErrors;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.blob.VerifyingInputStream;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.source.Passing;

/**
 * A cluster's blobs, into the volume: each digest the volume lacks is copied once (in parallel,
 * within the engine's bounds on copies in flight), verified while it streams; then the volume is
 * synced and the blobs recorded, so no row can commit before its blob is durable. A digest the
 * volume holds already is a dedup hit; the volume is asked only for digests it may hold ({@link
 * RecordedDigests}). Content that passes (an mbox, an archive) is staged as it passes, written
 * behind its reader ({@link WriteBehind}); its cluster collects the writes. Passing content of a
 * digest the volume may hold is held instead, and asked for with the cluster's other digests.
 */
final class BlobTransfer {

  /** Passing content of unknown digest up to this size is hashed in memory, larger spooled. */
  private static final int IN_MEMORY = 8 << 20;

  private final BlobVolume volume;
  private final int volumeId;
  private final VolumeStore volumes;
  private final RecordedDigests recorded;
  private final WritesInFlight flights;
  private final WriteContext context;
  private final WriteBehind behind;

  /** Writes behind still running: the writer waits for them as it closes. */
  private final Set<Future<WritesInFlight.Written>> running = ConcurrentHashMap.newKeySet();

  /** Content held for its cluster's lookup, whose room is not given back yet. */
  private final Set<Held> holding = ConcurrentHashMap.newKeySet();

  BlobTransfer(
      BlobVolume volume,
      int volumeId,
      VolumeStore volumes,
      RecordedDigests recorded,
      WritesInFlight flights,
      WriteContext context,
      WriteBehind behind) {
    this.volume = volume;
    this.volumeId = volumeId;
    this.volumes = volumes;
    this.recorded = recorded;
    this.flights = flights;
    this.context = context;
    this.behind = behind;
  }

  /**
   * Passing content of a digest the volume may hold already: kept in memory, not written, until its
   * cluster asks the volume (one query for the cluster) and writes it only if the answer is no.
   */
  private record Held(byte[] bytes) {}

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
    long window = flights.open(); // before the cluster asks the database
    try {
      return transferAll(items, journal);
    } finally {
      flights.close(window);
      for (ItemToWrite item : items) {
        if (item.staged() != null && item.staged().handle() instanceof Held held) {
          release(held); // the bytes stay with the item, should its cluster be written again
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
      } else if (item.staged().handle() instanceof Held) {
        byDigest.computeIfAbsent(item.staged().digest(), d -> new ArrayList<>()).add(item);
      } else {
        staged.add(item);
      }
    }
    long dedupHits = 0;
    if (!byDigest.isEmpty()) {
      Map<BlobDigest, StoredBlob> present =
          volumes.present(volumeId, recorded.mightHold(byDigest.keySet()));
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
        volume.sync();
      } catch (IOException e) {
        throw new SQLException("cannot make the cluster's blobs durable: " + e.getMessage(), e);
      }
      RecordedDigests.Recording recording = recorded.recording(newBlobs);
      long inserted;
      try {
        inserted = volumes.record(volumeId, newBlobs);
      } catch (SQLException | RuntimeException e) {
        recording.failed();
        throw e;
      }
      recording.recorded(inserted);
      flights.recorded(newBlobs);
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
      if (u.staged() != null && u.staged().handle() instanceof Held held) {
        try {
          byte[] bytes = held.bytes();
          return Copied.of(
              flights.once(
                  digest,
                  () -> volume.write(digest, bytes.length, new ByteArrayInputStream(bytes))));
        } catch (IOException e) {
          return Copied.failed(e, "not written to the volume: ");
        }
      }
    }
    long size = users.get(0).state().size();
    try {
      // Another cluster's write of the digest is waited for before a turn is taken, not in one.
      return Copied.of(
          flights.once(
              digest,
              () -> context.content().read(digest, size, in -> volume.write(digest, size, in))));
    } catch (IOException e) {
      return Copied.failed(e, "blob " + digest + ": ");
    }
  }

  /**
   * Takes content as it passes. With a declared digest it is checked as it is read, and a mismatch
   * fails here; without one, its digest is computed first (in memory for small content, through a
   * spool file for large). Content of a digest the volume may hold already is kept for its
   * cluster's lookup, when there is room for it, else asked for alone, so that list mail in a
   * hundred archives is stored once. The rest is written behind its reader when {@link WriteBehind}
   * takes it, otherwise at once.
   */
  Staged stage(Passing content, BlobDigest declared) throws IOException {
    long size = content.size();
    if (declared != null) {
      try (InputStream in =
          new VerifyingInputStream(content.open(), declared, size, content::describe)) {
        boolean maybe = size >= 0 && mayHold(declared);
        if (maybe && size <= IN_MEMORY && behind.tryHold((int) size)) {
          byte[] bytes;
          try {
            bytes = in.readNBytes((int) size);
            in.read(); // the end, where the digest and size are checked: -1, or it throws
          } catch (IOException | RuntimeException e) {
            behind.unhold((int) size);
            throw e;
          }
          return held(declared, bytes);
        }
        StoredBlob there = maybe ? lookUp(declared) : null;
        if (there != null) {
          in.transferTo(OutputStream.nullOutputStream()); // its content checked all the same
          return written(new WritesInFlight.Written(there, true));
        }
        if (size >= 0 && behind.takes(size)) {
          byte[] bytes = in.readNBytes((int) size);
          in.read(); // the end, where the digest and size are checked: -1, or it throws
          return writeBehind(declared, bytes);
        }
        WritesInFlight.Written w = flights.once(declared, () -> volume.write(declared, size, in));
        if (w.shared()) {
          in.transferTo(OutputStream.nullOutputStream()); // its content checked all the same
        }
        return written(w);
      }
    }
    MessageDigest sha = BlobDigest.newSha256();
    try (InputStream raw = new DigestInputStream(content.open(), sha)) {
      byte[] head = raw.readNBytes(IN_MEMORY + 1);
      if (head.length <= IN_MEMORY) {
        BlobDigest digest = BlobDigest.of(sha.digest());
        if (mayHold(digest)) {
          if (behind.tryHold(head.length)) {
            return held(digest, head);
          }
          StoredBlob there = lookUp(digest);
          if (there != null) {
            return written(new WritesInFlight.Written(there, true));
          }
        }
        if (behind.takes(head.length)) {
          return writeBehind(digest, head);
        }
        return written(
            flights.once(
                digest, () -> volume.write(digest, head.length, new ByteArrayInputStream(head))));
      }
      Path spool = Files.createTempFile("mailrestore-spool", ".eml");
      try {
        long total;
        try (OutputStream out = Files.newOutputStream(spool)) {
          out.write(head);
          total = head.length + raw.transferTo(out);
        }
        BlobDigest digest = BlobDigest.of(sha.digest());
        StoredBlob there = mayHold(digest) ? lookUp(digest) : null;
        if (there != null) {
          return written(new WritesInFlight.Written(there, true));
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(spool), 1 << 16)) {
          return written(flights.once(digest, () -> volume.write(digest, total, in)));
        }
      } finally {
        Files.deleteIfExists(spool);
      }
    }
  }

  /** Whether the volume may hold this digest, or another cluster is writing it. */
  private boolean mayHold(BlobDigest digest) {
    return recorded.mightHold(digest) || flights.writing(digest);
  }

  /**
   * The volume's blob of this digest, asked alone: its content is too large to hold for its
   * cluster's lookup, or the room for held content is full. Null when the volume lacks it, or when
   * the database cannot say: the content is then written, which costs a copy, not the item.
   */
  private StoredBlob lookUp(BlobDigest digest) {
    try {
      return volumes.present(volumeId, List.of(digest)).get(digest);
    } catch (SQLException e) {
      return null;
    }
  }

  private Staged held(BlobDigest digest, byte[] bytes) {
    Held held = new Held(bytes);
    holding.add(held);
    return new Staged(digest, bytes.length, held);
  }

  private void release(Held held) {
    if (holding.remove(held)) {
      behind.unhold(held.bytes().length);
    }
  }

  private static Staged written(WritesInFlight.Written w) {
    return new Staged(w.blob().digest(), w.blob().rawSize(), CompletableFuture.completedFuture(w));
  }

  /**
   * Writes content held in memory on the io threads, once there is room for it: the reader goes on
   * while the volume writes (an S3 volume's round trip per blob would otherwise be waited out once
   * per message).
   */
  private Staged writeBehind(BlobDigest digest, byte[] bytes) throws IOException {
    int size = bytes.length;
    behind.enter(size);
    FutureTask<WritesInFlight.Written> write =
        new FutureTask<>(() ->
            flights.once(
                digest, () -> volume.write(digest, size, new ByteArrayInputStream(bytes)))) {
          @Override
          protected void done() {
            running.remove(this);
            behind.leave(size);
          }
        };
    running.add(write);
    try {
      context.io().execute(write);
    } catch (RejectedExecutionException e) {
      write.cancel(false);
      throw new IOException("the restore is stopping: content not written", e);
    }
    return new Staged(digest, size, write);
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

  /**
   * Waits for the writes behind still running (their items may have been skipped, or the account
   * stopped): nothing of this account still writes once its writer is closed. A blob no cluster
   * recorded stays unreferenced, as after a crash. Content still held for a lookup gives its room
   * back.
   */
  void settle() {
    List.copyOf(holding).forEach(this::release);
    for (Future<WritesInFlight.Written> write : List.copyOf(running)) {
      try {
        write.get();
      } catch (ExecutionException | CancellationException e) {
        // Not restored: nothing refers to it, and its item was reported where it was left out.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
