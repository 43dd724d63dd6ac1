package org.mailrestore.mailstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The digests a volume holds, as far as this process can tell without asking the database (decision
 * 0080). When the volume held no blob as its target opened and no other writer has shown itself
 * since, every blob the volume holds was recorded by this process and kept here ({@link
 * Recording#recorded}), so a digest not here is copied without the lookup: a query per thousand
 * digests, the largest part of the database's work that a restore adds to its rows.
 *
 * <p>Only a "no" is trusted. The digests are kept in a Bloom filter (4 MiB, six bits a digest), so
 * a "maybe" (its six bits set) is asked of the database as before: a true duplicate, or about 2.3 %
 * of the others when the filter is full. A digest's six bits lie in one block of 512 (a cache
 * line), so a look-up waits for memory once, not six times. Another writer (a second instance, a
 * command next to the service) shows itself when a row this process records was there already and
 * no cluster of this process recorded it: from then on every digest is a "maybe". Its blobs copied
 * before that are copied once more, never lost: the volume keeps its first row of a digest, and the
 * copy stays unreferenced. Past {@link #MAX_ENTRIES} digests every digest is a "maybe" too.
 *
 * <p>Thread-safe: the clusters of every account ask and record at once.
 */
final class RecordedDigests {

  private static final Logger LOG = LoggerFactory.getLogger(RecordedDigests.class);

  /** Digests kept at most; then every digest is looked up, as for a volume not empty at open. */
  static final int MAX_ENTRIES = 4 << 20;

  /** The filter's bits: 2^25 (4 MiB), six per digest. */
  private static final int BITS_LOG2 = 25;

  /** A block's bits: 2^9, one cache line of 8 longs. */
  private static final int BLOCK_LOG2 = 9;

  private static final int HASHES = 6;

  /** A volume that held blobs when it opened: every digest is a "maybe". */
  static RecordedDigests unknown() {
    return new RecordedDigests("", false, 0);
  }

  /** A volume that held no blob when it opened; {@code volume} names it in the log. */
  static RecordedDigests empty(String volume) {
    return empty(volume, MAX_ENTRIES);
  }

  /** As {@link #empty(String)}, keeping at most {@code maxEntries} digests (tests). */
  static RecordedDigests empty(String volume, int maxEntries) {
    return new RecordedDigests(volume, true, maxEntries);
  }

  private final String volume;
  private final int maxEntries;
  private boolean tracking;
  private long[] bits; // made at the first record
  private int size;

  /** Digests of batches being recorded, with how many batches hold each. */
  private final Map<BlobDigest, Integer> pending = new HashMap<>();

  private RecordedDigests(String volume, boolean tracking, int maxEntries) {
    this.volume = volume;
    this.maxEntries = maxEntries;
    this.tracking = tracking;
  }

  /** False only when the volume surely lacks the digest. */
  boolean mightHold(BlobDigest digest) {
    return !mightHold(List.of(digest)).isEmpty();
  }

  /** Those of {@code digests} the volume may hold, in their order: the ones to ask for. */
  synchronized List<BlobDigest> mightHold(Collection<BlobDigest> digests) {
    if (!tracking) {
      return List.copyOf(digests);
    }
    List<BlobDigest> maybe = new ArrayList<>();
    for (BlobDigest d : digests) {
      if (bits != null && inFilter(d)) {
        maybe.add(d);
      }
    }
    return maybe;
  }

  /** A batch of blobs being recorded, from before its rows are sent until they are answered. */
  final class Recording {
    private final Set<BlobDigest> batch = new HashSet<>();
    private boolean letGo;

    private Recording(Collection<StoredBlob> blobs) {
      if (!tracking) {
        return; // every digest is a "maybe": nothing to keep
      }
      for (StoredBlob b : blobs) {
        batch.add(b.digest());
      }
      for (BlobDigest d : batch) {
        pending.merge(d, 1, Integer::sum);
      }
    }

    /**
     * The rows are answered: {@code inserted} of them were new (-1: not known). A row that was
     * there already was recorded by another cluster of this process (its digest kept here, or in a
     * batch still being recorded) or by another writer: when more rows were there than that
     * explains, every digest is a "maybe" from now on.
     */
    void recorded(long inserted) {
      synchronized (RecordedDigests.this) {
        letGo();
        if (!tracking) {
          return;
        }
        long there = batch.size() - inserted;
        // Counted only as far as it has to be: most batches find no row there.
        int ours = 0;
        for (Iterator<BlobDigest> i = batch.iterator(); ours < there && i.hasNext(); ) {
          BlobDigest d = i.next();
          if (pending.containsKey(d) || (bits != null && inFilter(d))) {
            ours++;
          }
        }
        if (inserted < 0 || there > ours || size + batch.size() > maxEntries) {
          tracking = false;
          bits = null;
          LOG.info(
              "volume {}: {}; each blob's digest is looked up in the database from now on",
              volume,
              inserted < 0
                  ? "the database did not say which blobs it recorded"
                  : there > ours
                      ? "another writer recorded some of the same blobs"
                      : "more than " + maxEntries + " blobs recorded by this process");
          return;
        }
        if (bits == null) {
          bits = new long[1 << (BITS_LOG2 - 6)];
        }
        for (BlobDigest d : batch) {
          addToFilter(d);
        }
        size += batch.size();
      }
    }

    /** The rows were not recorded (the statement failed): nothing is kept. */
    void failed() {
      synchronized (RecordedDigests.this) {
        letGo();
      }
    }

    /** This batch is no longer pending (once): what stays pending is other batches'. */
    private void letGo() {
      if (!letGo) {
        letGo = true;
        for (BlobDigest d : batch) {
          pending.computeIfPresent(d, (k, n) -> n == 1 ? null : n - 1);
        }
      }
    }
  }

  /** Blobs about to be recorded; {@link Recording#recorded} once the database answered. */
  synchronized Recording recording(Collection<StoredBlob> blobs) {
    return new Recording(blobs);
  }

  /** Digests kept; for tests. */
  synchronized int size() {
    return size;
  }

  /** Whether a "no" can still be given; for tests. */
  synchronized boolean tracking() {
    return tracking;
  }

  // A digest's block comes from its first 8 bytes, its six bits in the block from the next 8 (9
  // bits each): SHA-256 spreads them evenly, whatever the content.

  private boolean inFilter(BlobDigest digest) {
    return filterBits(digest, false);
  }

  private void addToFilter(BlobDigest digest) {
    filterBits(digest, true);
  }

  /** Sets the digest's six bits ({@code set}), or tells whether they are all set. */
  private boolean filterBits(BlobDigest digest, boolean set) {
    int block = (int) (digest.word(0) >>> (64 - (BITS_LOG2 - BLOCK_LOG2))) << (BLOCK_LOG2 - 6);
    long positions = digest.word(1);
    for (int i = 0; i < HASHES; i++, positions >>>= BLOCK_LOG2) {
      int bit = (int) positions & ((1 << BLOCK_LOG2) - 1);
      int word = block + (bit >>> 6);
      long mask = 1L << bit;
      if (set) {
        bits[word] |= mask;
      } else if ((bits[word] & mask) == 0) {
        return false;
      }
    }
    return true;
  }
}
