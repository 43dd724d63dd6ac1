package org.mailrestore.imap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A list cut, in order, into groups of at most so many elements and so many bytes, but one element
 * alone whatever its size: what one APPEND, one FETCH's answer or one slice of a cluster holds.
 */
final class SizedGroups {

  private SizedGroups() {}

  static <T> List<List<T>> of(
      List<T> items, ToLongFunction<T> bytesOf, int maxCount, long maxBytes) {
    List<List<T>> groups = new ArrayList<>();
    List<T> group = new ArrayList<>();
    long bytes = 0;
    for (T item : items) {
      long size = Math.max(0, bytesOf.applyAsLong(item));
      if (!group.isEmpty() && (group.size() >= maxCount || bytes + size > maxBytes)) {
        groups.add(group);
        group = new ArrayList<>();
        bytes = 0;
      }
      group.add(item);
      bytes += size;
    }
    if (!group.isEmpty()) {
      groups.add(group);
    }
    return groups;
  }
}
