package org.mailrestore.imap;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** INTERNALDATE (RFC 3501 §9 date-time): {@code "02-Jan-2024 10:00:00 +0000"}, to the second. */
final class InternalDate {

  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("dd-MMM-yyyy HH:mm:ss Z", Locale.ENGLISH);

  private InternalDate() {}

  static String format(long epochMillis) {
    return FORMAT.format(Instant.ofEpochMilli(epochMillis).atZone(ZoneOffset.UTC));
  }

  /**
   * @throws java.io.IOException when the server's date cannot be read
   */
  static long parse(String value) throws java.io.IOException {
    String v = value.trim();
    if (v.length() > 1 && v.charAt(1) == '-') {
      v = "0" + v; // date-day-fixed may start with a space, trimmed above
    }
    try {
      return ZonedDateTime.parse(v, FORMAT).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new java.io.IOException("unreadable INTERNALDATE from the server: " + value);
    }
  }
}
