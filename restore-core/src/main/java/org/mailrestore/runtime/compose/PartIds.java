package org.mailrestore.runtime.compose;

import org.mailrestore.mail.SystemFolder;

/**
 * How the ids of composed targets share one id space: the engine keeps one id per item (its id map,
 * checkpoints and verify know nothing of parts), so an id a part chose carries the part's index in
 * its high bits. The first part's ids and every system folder's id (the same in every part) pass
 * unchanged, so a composition whose first part takes everything reads as that target.
 */
final class PartIds {

  /** A part's own ids stay below this: 134 million items in one mailbox. */
  static final int PART_SHIFT = 27;

  /** How many parts one composition may have (the bits left above a part's ids). */
  static final int MAX_PARTS = 1 << (Integer.SIZE - 1 - PART_SHIFT);

  private static final int LOCAL_MASK = (1 << PART_SHIFT) - 1;

  private PartIds() {}

  /**
   * The composed id of a part's id.
   *
   * @throws IllegalStateException when the part's id does not fit below its index
   */
  static int encode(int part, int id) {
    if (isShared(id)) {
      return id;
    }
    if (id < 0 || id > LOCAL_MASK) {
      throw new IllegalStateException(
          "a composed target's part gave id "
              + id
              + ", which does not fit in "
              + PART_SHIFT
              + " bits");
    }
    return (part << PART_SHIFT) | id;
  }

  /** The part an id belongs to; a system folder's id belongs to every part (0 is answered). */
  static int part(int id) {
    return isShared(id) ? 0 : id >>> PART_SHIFT;
  }

  /** The part's own id. */
  static int local(int id) {
    return isShared(id) ? id : id & LOCAL_MASK;
  }

  /** System folders have the same id in every part. */
  static boolean isShared(int id) {
    return id < SystemFolder.FIRST_USER_ID;
  }
}
