package org.mailrestore.verify;

import java.util.HexFormat;
import org.mailrestore.blob.BlobDigest;

/**
 * The most recent digests added, at most a fixed number, in arrays of longs made once: a verify
 * meets every content of the server once, and a set of objects would send each digest it forgets to
 * the old generation first (a tenth of a kilobyte each, a million messages a hundred megabytes).
 * The eldest added is forgotten first. Thread-safe.
 */
final class RecentDigests {

  private static final int LONGS = 4; // a SHA-256 in longs

  private final int capacity;

  /** The digests in the order added, a ring: slot {@code i} is {@code LONGS} longs from i * 4. */
  private final long[] ring;

  /** Open addressing with linear probing: a ring slot + 1, or 0 where empty. */
  private final int[] index;

  private final int mask;
  private int size;
  private int eldest;

  RecentDigests(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
    }
    this.capacity = capacity;
    this.ring = new long[capacity * LONGS];
    int tableSize = Integer.highestOneBit(capacity * 2 - 1) << 1; // at most half full
    this.index = new int[tableSize];
    this.mask = tableSize - 1;
  }

  /** Adds a digest; true when it was not among the recent ones (the caller reads it now). */
  synchronized boolean add(BlobDigest digest) {
    String hex = digest.hex();
    long a = HexFormat.fromHexDigitsToLong(hex, 0, 16);
    long b = HexFormat.fromHexDigitsToLong(hex, 16, 32);
    long c = HexFormat.fromHexDigitsToLong(hex, 32, 48);
    long d = HexFormat.fromHexDigitsToLong(hex, 48, 64);
    int at = home(a);
    for (int s = index[at]; s != 0; s = index[at]) {
      int o = (s - 1) * LONGS;
      if (ring[o] == a && ring[o + 1] == b && ring[o + 2] == c && ring[o + 3] == d) {
        return false;
      }
      at = (at + 1) & mask;
    }
    int slot;
    if (size == capacity) {
      slot = eldest;
      remove(slot);
      eldest = (eldest + 1) % capacity;
      at = home(a); // the removal may have moved entries up the probe
      while (index[at] != 0) {
        at = (at + 1) & mask;
      }
    } else {
      slot = (eldest + size) % capacity;
      size++;
    }
    int o = slot * LONGS;
    ring[o] = a;
    ring[o + 1] = b;
    ring[o + 2] = c;
    ring[o + 3] = d;
    index[at] = slot + 1;
    return true;
  }

  /** How many digests are remembered now (for tests). */
  synchronized int size() {
    return size;
  }

  /** Takes ring slot {@code slot} out of the index, moving later entries of its probe back. */
  private void remove(int slot) {
    int at = home(ring[slot * LONGS]);
    while (index[at] != slot + 1) {
      at = (at + 1) & mask;
    }
    int hole = at;
    for (int next = (hole + 1) & mask; index[next] != 0; next = (next + 1) & mask) {
      int wants = home(ring[(index[next] - 1) * LONGS]);
      // It may fill the hole when its home is not in the stretch (hole, next] of the probe.
      boolean between = hole < next ? wants > hole && wants <= next : wants > hole || wants <= next;
      if (!between) {
        index[hole] = index[next];
        hole = next;
      }
    }
    index[hole] = 0;
  }

  private int home(long first) {
    // SHA-256's bits are uniform already: the high ones pick the bucket.
    return (int) (first >>> 33) & mask;
  }
}
