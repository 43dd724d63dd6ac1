package org.mailrestore.zimbra;

import java.nio.charset.StandardCharsets;

/** The records of a pax extended header that matter here: the path and the size. */
record PaxHeader(String path, Long size) {

  static PaxHeader parse(byte[] body) {
    String path = null;
    Long size = null;
    int i = 0;
    while (i < body.length) {
      int space = i;
      while (space < body.length && body[space] != ' ') {
        space++;
      }
      int length;
      try {
        length = Integer.parseInt(new String(body, i, space - i, StandardCharsets.US_ASCII));
      } catch (NumberFormatException e) {
        break;
      }
      if (length <= 0 || i + length > body.length) {
        break;
      }
      String record = new String(body, space + 1, i + length - space - 2, StandardCharsets.UTF_8);
      int eq = record.indexOf('=');
      if (eq > 0) {
        String key = record.substring(0, eq);
        String value = record.substring(eq + 1);
        if (key.equals("path")) {
          path = value;
        } else if (key.equals("size")) {
          try {
            size = Long.parseLong(value);
          } catch (NumberFormatException e) {
            // a size we cannot read: keep the header's
          }
        }
      }
      i += length;
    }
    return new PaxHeader(path, size);
  }
}
