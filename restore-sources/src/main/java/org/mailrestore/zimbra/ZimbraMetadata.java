package org.mailrestore.zimbra;

import java.util.Map;
import org.mailrestore.zimbra.Bencode.BencodeException;

/**
 * An item's Zimbra metadata, kept as it was in the attribute {@link #ATTR} by the archive reader,
 * for the targets that read what our model does not (the DAV target reads an appointment's invites
 * from it when the item has no iCalendar content).
 */
public final class ZimbraMetadata {

  /** The attribute that holds an item's metadata text. */
  public static final String ATTR = MetaFields.RAW_METADATA;

  /** The text is not Zimbra's metadata encoding; the message says where it breaks. */
  public static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1;

    Unreadable(String message) {
      super(message);
    }
  }

  private ZimbraMetadata() {}

  /**
   * The metadata as a dictionary of {@code Map<String, Object>}, {@code List<Object>}, {@link Long}
   * and {@link String} values; an empty text is an empty dictionary.
   */
  public static Map<String, Object> decode(String text) throws Unreadable {
    try {
      return Bencode.decodeMap(text);
    } catch (BencodeException e) {
      throw new Unreadable(e.getMessage());
    }
  }

  /** A dictionary in Zimbra's encoding (what Zimbra's {@code Metadata.toString} writes). */
  public static String encode(Map<String, ?> metadata) {
    return Bencode.encode(metadata);
  }
}
