package org.mailrestore.mailstore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;

/**
 * The blobs this process is writing to a volume and has not recorded yet, by digest: a second write
 * of a digest in flight waits for the first and takes its blob instead of writing it again
 * (decision 0082). Without it, two clusters that meet the same new digest at once (list mail in two
 * accounts restored side by side) both write it, since neither the database nor {@link
 * RecordedDigests} knows it before one records it; in a packed volume the second copy stays
 * unreferenced.
 *
 * <p>A write ends here when its blob is recorded ({@link #recorded}) and every cluster that asked
 * the database before that has ended ({@link #open}, {@link #close}): from then on {@link
 * RecordedDigests} or the database answers for it. A write that failed ends at once, and whoever
 * waited for it writes itself. Thread-safe: every account's clusters write at once; a lock, not a
 * monitor, as elsewhere where virtual threads wait.
 */
final class WritesInFlight {

  /** One volume write: the blob it stored ({@code E}: what else it may throw, as waiting). */
  @FunctionalInterface
  interface Write<E extends Exception> {
    StoredBlob write() throws IOException, E;
  }

  /** A blob this process wrote, or took from the write of another cluster ({@code shared}). */
  record Written(StoredBlob blob, boolean shared) {}

  private final ConcurrentHashMap<BlobDigest, CompletableFuture<StoredBlob>> writing =
      new ConcurrentHashMap<>();

  /** A blob recorded while {@link #epoch} had this value. */
  private record Recorded(long epoch, StoredBlob blob) {}

  private final ReentrantLock lock = new ReentrantLock();
  private long epoch; // counts the batches recorded
  private final TreeMap<Long, Integer> open = new TreeMap<>(); // windows open, by start
  private final ArrayDeque<Recorded> recorded = new ArrayDeque<>(); // in epoch order

  /** Whether a write of this digest is in flight: its content need not be written again. */
  boolean writing(BlobDigest digest) {
    return writing.containsKey(digest);
  }

  /**
   * Writes the blob of this digest once in this process: when a write of it is in flight, waits for
   * it and takes its blob; else (or when that write failed) writes it.
   */
  <E extends Exception> Written once(BlobDigest digest, Write<E> write) throws IOException, E {
    CompletableFuture<StoredBlob> mine = new CompletableFuture<>();
    CompletableFuture<StoredBlob> other = writing.putIfAbsent(digest, mine);
    if (other != null) {
      StoredBlob theirs = awaitQuietly(other);
      if (theirs != null) {
        return new Written(theirs, true);
      }
      return new Written(write.write(), false); // theirs failed; ours is not shared, as a retry
    }
    try {
      StoredBlob blob = write.write();
      mine.complete(blob);
      return new Written(blob, false);
    } catch (Throwable e) {
      writing.remove(digest, mine);
      mine.completeExceptionally(e);
      throw e;
    }
  }

  /**
   * A cluster's lookups start: until {@link #close}, no write recorded from now on leaves this map,
   * so a digest the database did not have when the cluster asked is still found here if another
   * cluster records it meanwhile. Returns the window's start, for {@link #close}.
   */
  long open() {
    lock.lock();
    try {
      open.merge(epoch, 1, Integer::sum);
      return epoch;
    } finally {
      lock.unlock();
    }
  }

  /** A cluster's lookups and writes have ended. */
  void close(long start) {
    lock.lock();
    try {
      open.computeIfPresent(start, (e, n) -> n == 1 ? null : n - 1);
      forgetRecorded();
    } finally {
      lock.unlock();
    }
  }

  /**
   * These blobs are recorded: the filter or the database answers for their digests, to every
   * cluster that asks from now on. They leave this map once the clusters that asked before have
   * closed.
   */
  void recorded(Collection<StoredBlob> blobs) {
    lock.lock();
    try {
      for (StoredBlob b : blobs) {
        recorded.add(new Recorded(epoch, b));
      }
      epoch++;
      forgetRecorded();
    } finally {
      lock.unlock();
    }
  }

  /** Drops the writes recorded before every open window started. */
  private void forgetRecorded() {
    long oldest = open.isEmpty() ? Long.MAX_VALUE : open.firstKey();
    while (!recorded.isEmpty() && recorded.peekFirst().epoch() < oldest) {
      StoredBlob b = recorded.pollFirst().blob();
      writing.computeIfPresent(
          b.digest(), (d, f) -> f.state() == Future.State.SUCCESS && f.resultNow() == b ? null : f);
    }
  }

  /** Writes in flight or written and not recorded; for tests. */
  int size() {
    return writing.size();
  }

  /** The blob of another write, or null when it failed (its failure is its own cluster's). */
  private static StoredBlob awaitQuietly(CompletableFuture<StoredBlob> other)
      throws InterruptedIOException {
    try {
      return other.get();
    } catch (ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a write of the same blob");
    }
  }
}
