package org.mailrestore.restore;

import java.util.List;

/**
 * One page of a list.
 *
 * @param page the page number, from 0
 * @param hasMore whether a next page has entries
 */
public record Page<T>(List<T> items, int page, int size, boolean hasMore) {

  /** A page from {@code size + 1} fetched entries: the extra one only tells there is more. */
  public static <T> Page<T> of(List<T> fetched, int page, int size) {
    boolean more = fetched.size() > size;
    return new Page<>(more ? fetched.subList(0, size) : fetched, page, size, more);
  }
}
