package org.mailrestore.imap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A message as a FETCH response describes it: whatever of UID, size, INTERNALDATE, flags, the
 * Message-ID header and the body it holds.
 *
 * @param date INTERNALDATE in epoch milliseconds, or 0
 * @param messageId as {@link Appending#messageId}, or null
 * @param body {@code BODY[]} (or a slice of it, {@code BODY[]<offset>}), or null
 */
record ServerMessage(
    long uid, long size, long date, List<String> flags, String messageId, byte[] body) {

  static ServerMessage of(Response fetch) throws IOException {
    List<?> attributes = attributes(fetch);
    long uid = -1;
    long size = -1;
    long date = 0;
    List<String> flags = new ArrayList<>();
    String messageId = null;
    byte[] body = null;
    for (int i = 0; i + 1 < attributes.size(); i += 2) {
      String name = String.valueOf(attributes.get(i)).toUpperCase(Locale.ROOT);
      Object value = attributes.get(i + 1);
      switch (name) {
        case "UID" -> uid = Long.parseLong(String.valueOf(value));
        case "RFC822.SIZE" -> size = Long.parseLong(String.valueOf(value));
        case "INTERNALDATE" -> date = InternalDate.parse(String.valueOf(value));
        case "FLAGS" -> {
          if (value instanceof List<?> list) {
            list.forEach(f -> flags.add(String.valueOf(f)));
          }
        }
        case "BODY[]" -> body = bytes(value);
        default -> {
          if (name.startsWith("BODY[]<")) {
            body = bytes(value); // a slice (PartialBody)
          } else if (name.startsWith("BODY[HEADER.FIELDS")) {
            byte[] header = bytes(value);
            messageId = header == null ? null : Appending.messageId(header);
          }
        }
      }
    }
    return new ServerMessage(uid, size, date, flags, messageId, body);
  }

  /** The BODY[] of a FETCH response, or null. */
  static byte[] body(Response fetch) throws IOException {
    return of(fetch).body();
  }

  private static List<?> attributes(Response fetch) throws IOException {
    List<Object> data = fetch.data();
    Object last = data.get(data.size() - 1);
    if (!(last instanceof List<?> list)) {
      throw new IOException("unreadable FETCH response");
    }
    return list;
  }

  private static byte[] bytes(Object value) {
    if (value instanceof byte[] b) {
      return b;
    }
    return value == null ? null : String.valueOf(value).getBytes(StandardCharsets.UTF_8);
  }
}
