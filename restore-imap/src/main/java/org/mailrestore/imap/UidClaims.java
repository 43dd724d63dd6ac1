package org.mailrestore.imap;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.imap.Appending.Placed;

/**
 * The UIDs an account's clusters appended or found and have not committed yet, per folder and
 * UIDVALIDITY: a cluster written again in doubt looks up what no record names, and must not take
 * another cluster's message, not yet recorded, for its own.
 */
final class UidClaims {

  private final Map<String, Set<Long>> claimed = new ConcurrentHashMap<>();

  void claim(int folderId, Placed p) {
    claimed
        .computeIfAbsent(key(folderId, p.uidValidity()), k -> ConcurrentHashMap.newKeySet())
        .add(p.uid());
  }

  /** Once recorded (or given up): the records name it now. */
  void release(int folderId, Placed p) {
    Set<Long> set = claimed.get(key(folderId, p.uidValidity()));
    if (set != null) {
      set.remove(p.uid());
    }
  }

  Set<Long> of(int folderId, long uidValidity) {
    return claimed.getOrDefault(key(folderId, uidValidity), Set.of());
  }

  private static String key(int folderId, long uidValidity) {
    return folderId + "/" + uidValidity;
  }
}
