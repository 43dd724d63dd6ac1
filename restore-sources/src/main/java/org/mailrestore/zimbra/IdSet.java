package org.mailrestore.zimbra;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * The item ids met so far in an archive, to find the ones that come twice: a bit per id for the ids
 * real mailboxes have (a megabyte per eight million), a set for the odd large one.
 */
final class IdSet {

  private static final int DENSE_LIMIT = 1 << 26;

  private final BitSet dense = new BitSet();
  private final Set<Integer> sparse = new HashSet<>();

  /** Adds the id; false when it was there already. */
  boolean add(int id) {
    if (id >= 0 && id < DENSE_LIMIT) {
      if (dense.get(id)) {
        return false;
      }
      dense.set(id);
      return true;
    }
    return sparse.add(id);
  }
}
