package org.mailrestore.mailstore;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The room for content written behind its reader (decision 0079): a message that passes in an mbox
 * or an archive is held in memory while the volume writes it, so the reader can go on to the next
 * one instead of waiting out a round trip per message. One room per volume, shared by every account
 * writing to it, so the memory held stays bounded however many accounts run. Content a packed
 * volume appends to a pack is written by its reader: the append costs less than handing it over.
 * The same room bounds, apart, the content held until its cluster asks whether the volume holds it
 * already ({@link #tryHold}).
 *
 * <p>A lock, not a monitor: readers wait here on virtual threads, and on JDK 21 one waiting for a
 * monitor would hold its carrier.
 */
final class WriteBehind {

  /** Content up to this size is written behind; larger content is written by its reader. */
  static final int MAX_CONTENT = 4 << 20;

  /** The bytes held for writes in flight, over every account. */
  static final long MAX_BYTES = 32L << 20;

  /** The writes in flight: the volume's own bound on requests (StorageLimits) would queue more. */
  static final int MAX_WRITES = 64;

  /**
   * The bytes of content held in memory until its cluster asks the volume for its digest, over
   * every account (see {@link #tryHold}).
   */
  static final long MAX_HELD_BYTES = 32L << 20;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private final long appendedUpTo;
  private final long maxBytes;
  private final int maxWrites;
  private long bytes;
  private int writes;
  private long held;

  /**
   * @param appendedUpTo the largest content the volume appends to a pack (0 for a volume without
   *     packs)
   */
  WriteBehind(long appendedUpTo) {
    this(appendedUpTo, MAX_BYTES, MAX_WRITES);
  }

  WriteBehind(long appendedUpTo, long maxBytes, int maxWrites) {
    this.appendedUpTo = appendedUpTo;
    this.maxBytes = maxBytes;
    this.maxWrites = maxWrites;
  }

  /** Whether content of this size is written behind its reader. */
  boolean takes(long size) {
    return size > appendedUpTo && size <= MAX_CONTENT;
  }

  /** Waits for room for one write of {@code size} bytes (at most {@link #MAX_CONTENT}). */
  void enter(int size) throws InterruptedIOException {
    lock.lock();
    try {
      // A write always fits an empty room, whatever its size: no content waits forever.
      while (writes > 0 && (writes >= maxWrites || bytes + size > maxBytes)) {
        room.await();
      }
      writes++;
      bytes += size;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to write a message behind");
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes room for content kept until its cluster's dedup lookup, if there is room now. Never
   * waits: the room is given back only when the cluster ends, and its reader must not wait for
   * itself. Without room the content is asked for alone, then written if the volume lacks it.
   */
  boolean tryHold(int size) {
    lock.lock();
    try {
      if (held + size > MAX_HELD_BYTES) {
        return false;
      }
      held += size;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back the room of content held for a lookup. */
  void unhold(int size) {
    lock.lock();
    try {
      held -= size;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back the room of a write that ended (written or failed). */
  void leave(int size) {
    lock.lock();
    try {
      writes--;
      bytes -= size;
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
