package org.mailrestore.mailstore;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
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
 * <p>Only a "no" is trusted. Each digest is kept as a 4-byte fingerprint, so a "maybe" (the same
 * fingerprint) is asked of the database as before. Another writer (a second instance, a command
 * next to the service) shows itself when a row this process records was there already and no
 * cluster of this process recorded it: from then on every digest is a "maybe". Its blobs copied
 * before that are copied once more, never lost: the volume keeps its first row of a digest, and the
 * copy stays unreferenced. Past {@link #MAX_ENTRIES} digests every digest is a "maybe" too: the
 * table stays within 16 MiB.
 *
 * <p>Thread-safe: the clusters of every account ask and record at once.
 */
final class RecordedDigests {

  private static final Logger LOG = LoggerFactory.getLogger(RecordedDigests.class);

  /** Digests kept at most; then every digest is looked up, as for a volume not empty at open. */
  static final int MAX_ENTRIES = 3 << 20;

  private static final int FIRST_SLOTS = 1 << 12;

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
  private int[] slots; // null once every digest is a "maybe"; 0: free; else a fingerprint
  private int size;

  private RecordedDigests(String volume, boolean tracking, int maxEntries) {
    this.volume = volume;
    this.maxEntries = maxEntries;
    this.slots = tracking ? new int[FIRST_SLOTS] : null;
  }

  /** False only when the volume surely lacks the digest. */
  synchronized boolean mightHold(BlobDigest digest) {
    return slots == null || contains(slots, fingerprint(digest));
  }

  /** A batch of blobs being recorded, from before its rows are sent until they are answered. */
  final class Recording {
    private final Set<Integer> batch = new HashSet<>();
    private boolean letGo;

    private Recording(Collection<StoredBlob> blobs) {
      if (slots == null) {
        return; // every digest is a "maybe": nothing to keep
      }
      for (StoredBlob b : blobs) {
        batch.add(fingerprint(b.digest()));
      }
      for (int f : batch) {
        pending.merge(f, 1, Integer::sum);
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
        if (slots == null) {
          return;
        }
        int ours = 0;
        for (int f : batch) {
          if (pending.containsKey(f) || contains(slots, f)) {
            ours++;
          }
        }
        long there = batch.size() - inserted;
        if (inserted < 0 || there > ours || size + batch.size() > maxEntries) {
          slots = null;
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
        for (int f : batch) {
          if ((size + 1) * 4L > slots.length * 3L) {
            grow();
          }
          if (insert(slots, f)) {
            size++;
          }
        }
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
        for (int f : batch) {
          pending.computeIfPresent(f, (k, n) -> n == 1 ? null : n - 1);
        }
      }
    }
  }

  /** Fingerprints of batches being recorded, with how many batches hold each. */
  private final Map<Integer, Integer> pending = new HashMap<>();

  /** Blobs about to be recorded; {@link Recording#recorded} once the database answered. */
  synchronized Recording recording(Collection<StoredBlob> blobs) {
    return new Recording(blobs);
  }

  /** Digests kept (distinct fingerprints); for tests. */
  synchronized int size() {
    return size;
  }

  /** Whether a "no" can still be given; for tests. */
  synchronized boolean tracking() {
    return slots != null;
  }

  private void grow() {
    int[] bigger = new int[slots.length * 2];
    for (int f : slots) {
      if (f != 0) {
        insert(bigger, f);
      }
    }
    slots = bigger;
  }

  private static boolean contains(int[] table, int f) {
    int mask = table.length - 1;
    for (int i = spread(f) & mask; ; i = (i + 1) & mask) {
      if (table[i] == f) {
        return true;
      }
      if (table[i] == 0) {
        return false;
      }
    }
  }

  private static boolean insert(int[] table, int f) {
    int mask = table.length - 1;
    for (int i = spread(f) & mask; ; i = (i + 1) & mask) {
      if (table[i] == f) {
        return false;
      }
      if (table[i] == 0) {
        table[i] = f;
        return true;
      }
    }
  }

  /** The digest's first four bytes; 0 (a free slot) becomes 1, a collision that only asks more. */
  static int fingerprint(BlobDigest digest) {
    int f = Integer.parseUnsignedInt(digest.hex(), 0, 8, 16);
    return f == 0 ? 1 : f;
  }

  private static int spread(int f) {
    return f ^ (f >>> 16);
  }
}
