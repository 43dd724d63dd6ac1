package org.mailrestore.restore;

import java.util.List;
import org.mailrestore.kind.FieldProblems;

/**
 * One page of a list.
 *
 * @param page the page number, from 0
 * @param hasMore whether a next page has entries
 */
public record Page<T>(List<T> items, int page, int size, boolean hasMore) {

  /** The last page a list may be asked for: its first entry stays within reach of an int. */
  public static final int MAX_PAGE = 1_000_000;

  /** The most entries a page may hold. */
  public static final int MAX_SIZE = 1_000;

  /**
   * The offset of a page's first entry.
   *
   * @throws FieldProblems.Invalid naming the field out of bounds
   */
  public static int offset(int page, int size) {
    FieldProblems problems = new FieldProblems();
    if (page < 0 || page > MAX_PAGE) {
      problems.add("page", "must be between 0 and " + MAX_PAGE);
    }
    if (size < 1 || size > MAX_SIZE) {
      problems.add("size", "must be between 1 and " + MAX_SIZE);
    }
    problems.throwIfAny();
    return page * size;
  }

  /** A page from {@code size + 1} fetched entries: the extra one only tells there is more. */
  public static <T> Page<T> of(List<T> fetched, int page, int size) {
    boolean more = fetched.size() > size;
    return new Page<>(more ? fetched.subList(0, size) : fetched, page, size, more);
  }
}
