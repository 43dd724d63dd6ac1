package org.mailrestore.imap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** UID sets (RFC 3501 sequence-set, RFC 4315 uid-set): {@code 3,5:7}. */
final class UidSet {

  private UidSet() {}

  /** The UIDs of a set, in its order ({@code 5:7} gives 5, 6, 7). */
  static List<Long> parse(String set) {
    List<Long> uids = new ArrayList<>();
    for (String part : set.trim().split(",")) {
      int colon = part.indexOf(':');
      if (colon < 0) {
        uids.add(Long.parseLong(part));
      } else {
        long a = Long.parseLong(part.substring(0, colon));
        long b = Long.parseLong(part.substring(colon + 1));
        for (long u = Math.min(a, b); u <= Math.max(a, b); u++) {
          uids.add(u);
        }
      }
    }
    return uids;
  }

  /** A compact set of UIDs: consecutive ones as ranges. */
  static String format(Collection<Long> uids) {
    StringBuilder sb = new StringBuilder();
    Long start = null;
    Long prev = null;
    for (long u : new TreeSet<>(uids)) {
      if (prev != null && u == prev + 1) {
        prev = u;
        continue;
      }
      append(sb, start, prev);
      start = u;
      prev = u;
    }
    append(sb, start, prev);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Long start, Long end) {
    if (start == null) {
      return;
    }
    if (!sb.isEmpty()) {
      sb.append(',');
    }
    sb.append(start);
    if (!start.equals(end)) {
      sb.append(':').append(end);
    }
  }
}
