package org.mailrestore.source;

import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;

/** One item record of an account's item stream: decoded, or why it could not be. */
public sealed interface ItemEntry {

  /** The file (and for packed streams the line) the record came from. */
  String location();

  /**
   * An item and its history.
   *
   * @param passing the item's content when it follows the item in a stream that is read once (an
   *     archive): readable now, before the stream moves on, and never again; null when the content
   *     is read by digest from {@link MailSource#blobs()}, whenever needed
   */
  record Decoded(Item item, String location, Passing passing) implements ItemEntry {

    public Decoded(Item item, String location) {
      this(item, location, null);
    }
  }

  /**
   * A record that cannot be restored.
   *
   * @param itemId the item's id when it could be read, else 0
   * @param type the item's type when it could be read, else null
   * @param fatal true when the rest of the stream cannot be read either (a truncated or corrupt
   *     compressed stream); the iteration ends after this entry
   * @param failure what the restore records it as: {@link FailureReason#INVALID_ITEM}, or {@link
   *     FailureReason#ITEM_TOO_LARGE} for an item over the largest a restore reads
   */
  record Undecodable(
      int itemId,
      ItemType type,
      String location,
      String reason,
      boolean fatal,
      FailureReason failure)
      implements ItemEntry {

    /** A record that does not decode or is invalid. */
    public Undecodable(int itemId, ItemType type, String location, String reason, boolean fatal) {
      this(itemId, type, location, reason, fatal, FailureReason.INVALID_ITEM);
    }
  }
}
