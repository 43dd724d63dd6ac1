package org.mailrestore.dav;

import java.util.List;

/**
 * Lines of iCalendar text as {@link InviteCalendar} writes them: a property with a TEXT value
 * escaped, a value that must stand on one line, a parameter quoted where its value needs it.
 */
final class IcalLines {

  private IcalLines() {}

  static void textProperty(List<String> out, String name, String value) {
    if (value != null && !value.isEmpty()) {
      out.add(name + ":" + escape(value));
    }
  }

  static void plainProperty(List<String> out, String name, String value) {
    if (value != null && !value.isBlank() && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
      out.add(name + ":" + value);
    }
  }

  static void param(StringBuilder sb, String name, String value) {
    if (value != null && !value.isEmpty()) {
      sb.append(';').append(name).append('=').append(quoted(value));
    }
  }

  /** A TEXT value (RFC 5545 3.3.11). */
  static String escape(String s) {
    return s.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n");
  }

  /** A parameter value, quoted when it holds what ends one (RFC 5545 3.2); quotes cannot be. */
  static String quoted(String s) {
    String v = s.replace("\"", "'").replace("\r", " ").replace("\n", " ");
    return v.matches(".*[:;,].*") ? "\"" + v + "\"" : v;
  }

  static String unquote(String s) {
    String v = s.strip();
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")
        ? v.substring(1, v.length() - 1)
        : v;
  }
}
