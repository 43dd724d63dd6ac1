package org.mailrestore.imap;

import java.util.List;
import java.util.Locale;

/**
 * One response of the server, parsed.
 *
 * @param tag {@code *} for untagged data, {@code +} for a continuation request, else the tag of the
 *     command it ends
 * @param status OK, NO, BAD, BYE or PREAUTH for a status response, else null
 * @param code the response code between brackets ({@code APPENDUID 38505 3955}), or null
 * @param text the human-readable text of a status response or continuation
 * @param data the tokens of untagged data after the {@code *}: strings (atoms, quoted strings),
 *     {@code byte[]} (literals), lists ({@code List<Object>}) and null (NIL)
 */
record Response(String tag, String status, String code, String text, List<Object> data) {

  boolean isUntagged() {
    return "*".equals(tag);
  }

  boolean isContinuation() {
    return "+".equals(tag);
  }

  boolean isOk() {
    return "OK".equals(status);
  }

  /** The response code's first word, upper case ({@code APPENDUID}), or "". */
  String codeName() {
    if (code == null) {
      return "";
    }
    int space = code.indexOf(' ');
    return (space < 0 ? code : code.substring(0, space)).toUpperCase(Locale.ROOT);
  }

  /** The response code's arguments ({@code 38505 3955}), or "". */
  String codeArguments() {
    if (code == null) {
      return "";
    }
    int space = code.indexOf(' ');
    return space < 0 ? "" : code.substring(space + 1);
  }

  /** Whether this is untagged data of this kind, after an optional number ({@code * 3 FETCH}). */
  boolean is(String kind) {
    if (!isUntagged() || data.isEmpty()) {
      return false;
    }
    Object first = data.get(0);
    if (first instanceof String s && s.equalsIgnoreCase(kind)) {
      return true;
    }
    return data.size() > 1
        && first instanceof String n
        && !n.isEmpty()
        && Character.isDigit(n.charAt(0))
        && data.get(1) instanceof String s
        && s.equalsIgnoreCase(kind);
  }

  /** What the server said, for people: status, code and text. */
  String describe() {
    StringBuilder sb = new StringBuilder();
    if (status != null) {
      sb.append(status).append(' ');
    }
    if (code != null) {
      sb.append('[').append(code).append("] ");
    }
    sb.append(text == null ? "" : text);
    String s = sb.toString().strip();
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
