package org.mailrestore.imap;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.mail.ModifiedUtf7;

/** A command's text and literals, in order, to be sent with a tag. */
final class Command {

  private final List<Object> parts = new ArrayList<>();
  private final String name;

  private Command(String name) {
    this.name = name;
  }

  /** A command starting with its name ({@code APPEND}). */
  static Command of(String name) {
    Command c = new Command(name);
    c.parts.add(name);
    return c;
  }

  /** Raw text, as is (atoms, lists, numbers). */
  Command text(String text) {
    parts.add(text);
    return this;
  }

  /** A space, then a string: quoted when it can be, a literal otherwise. */
  Command string(String value) {
    parts.add(" ");
    if (isQuotable(value)) {
      parts.add(quote(value));
    } else {
      parts.add(value.getBytes(StandardCharsets.UTF_8));
    }
    return this;
  }

  /** A space, then a mailbox name in modified UTF-7. */
  Command mailbox(String name) {
    return string(ModifiedUtf7.encode(name));
  }

  /** A space, then a literal. */
  Command literal(byte[] bytes) {
    parts.add(" ");
    parts.add(bytes);
    return this;
  }

  /** A space, then a literal sent from a spooled message's file. */
  Command literal(SpooledMessage message) {
    parts.add(" ");
    parts.add(message);
    return this;
  }

  String name() {
    return name;
  }

  List<Object> parts() {
    return parts;
  }

  private static boolean isQuotable(String value) {
    if (value.length() > 1000) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\r' || c == '\n' || c == 0 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }

  private static String quote(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
