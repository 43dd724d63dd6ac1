package org.mailrestore.server.api;

import java.util.List;

/**
 * One page of a list.
 *
 * @param page the page number, from 0
 * @param hasMore whether a next page has entries
 */
public record PageView<T>(List<T> items, int page, int size, boolean hasMore) {

  /** A page from {@code size + 1} fetched entries: the extra one only tells there is more. */
  static <T> PageView<T> of(List<T> fetched, int page, int size) {
    boolean more = fetched.size() > size;
    return new PageView<>(more ? fetched.subList(0, size) : fetched, page, size, more);
  }
}
