package org.mailrestore.backup;

import org.mailrestore.mail.ItemType;

/**
 * An item record that cannot be restored: malformed JSON, a wrong field type, an invalid value.
 *
 * <p>Carries what is known of the item (its id, 0 when unknown; its type, null when unknown), so
 * the failure can name it.
 */
public class ItemDecodeException extends Exception {

  private static final long serialVersionUID = 1L;

  private final int itemId;
  private final transient ItemType type;

  public ItemDecodeException(String message, int itemId, ItemType type) {
    super(message);
    this.itemId = itemId;
    this.type = type;
  }

  public ItemDecodeException(String message, int itemId, ItemType type, Throwable cause) {
    super(message, cause);
    this.itemId = itemId;
    this.type = type;
  }

  public int itemId() {
    return itemId;
  }

  public ItemType type() {
    return type;
  }
}
