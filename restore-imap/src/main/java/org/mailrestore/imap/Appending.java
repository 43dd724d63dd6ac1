package org.mailrestore.imap;

import java.util.List;
import org.mailrestore.destination.ItemBatch.ItemToWrite;

/**
 * A message ready to append: its bytes as IMAP carries them (CRLF), where it goes, its flags and
 * keywords and its INTERNALDATE.
 *
 * @param size the size of the bytes sent
 * @param crlf the bytes sent (and what the server should hand back); null for a spooled message,
 *     and once the server holds them ({@link #withoutBytes})
 * @param spooled the bytes sent, for a message too large to hold; else null
 * @param lineEndings how the source's lines ended, to read it back as it was
 * @param bareLines for mixed line endings, which were bare LF ({@link LineEndings#bareLines})
 * @param nulBytes where NUL bytes are sent as {@code 0x80} ({@link NulBytes}), or null
 * @param flags IMAP flags and keywords
 * @param date INTERNALDATE in epoch milliseconds, or 0 to let the server choose
 * @param messageId the Message-ID header's value (whitespace removed), or null
 */
record Appending(
    ItemToWrite item,
    int folderId,
    String folder,
    long size,
    byte[] crlf,
    SpooledMessage spooled,
    LineEndings lineEndings,
    byte[] bareLines,
    byte[] nulBytes,
    List<String> flags,
    long date,
    String messageId) {

  /**
   * Each is one append, whatever it holds (its arrays compare by reference anyway): hashing the
   * item's whole revision as a record does cost about 5% of a restore's CPU.
   */
  @Override
  public boolean equals(Object other) {
    return this == other;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }

  /** The same append without its bytes, once the server holds them: a slice's memory goes. */
  Appending withoutBytes() {
    return new Appending(
        item,
        folderId,
        folder,
        size,
        null,
        null,
        lineEndings,
        bareLines,
        nulBytes,
        flags,
        date,
        messageId);
  }

  /** Where a message landed on the server. */
  record Placed(long uidValidity, long uid) {}

  Command command() {
    return Command.of("APPEND").mailbox(folder).text(" (" + String.join(" ", flags) + ")");
  }

  /** This message's part of an APPEND: flags, date and literal, after the mailbox. */
  void addTo(Command command, boolean first) {
    if (!first) {
      command.text(" (" + String.join(" ", flags) + ")");
    }
    if (date > 0) {
      command.text(" \"" + InternalDate.format(date) + "\"");
    }
    if (spooled != null) {
      command.literal(spooled);
    } else {
      command.literal(crlf);
    }
  }

  private static final String MESSAGE_ID = "message-id:";

  /** The value of the first Message-ID header, whitespace removed, or null. */
  static String messageId(byte[] message) {
    int i = 0;
    int n = message.length;
    while (i < n) {
      int end = i;
      while (end < n && message[end] != '\n') {
        end++;
      }
      int lineEnd = end > i && message[end - 1] == '\r' ? end - 1 : end;
      if (lineEnd == i) {
        return null; // the blank line: end of the header
      }
      if (startsWithIgnoringCase(message, i, lineEnd, MESSAGE_ID)) {
        // The value, its folded lines after it, without white space: read as bytes, since most
        // lines of a header are not this one.
        StringBuilder id = new StringBuilder();
        int e = i + MESSAGE_ID.length();
        while (e < n) {
          byte b = message[e];
          if (b == '\n' && (e + 1 >= n || (message[e + 1] != ' ' && message[e + 1] != '\t'))) {
            break;
          }
          if (!isWhitespace(b)) {
            id.append(Character.toLowerCase((char) (b & 0xff)));
          }
          e++;
        }
        return id.isEmpty() ? null : id.toString();
      }
      i = end + 1;
    }
    return null;
  }

  /** What {@code \s} matches in a regular expression. */
  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0b || b == '\f';
  }

  private static boolean startsWithIgnoringCase(byte[] bytes, int from, int to, String lower) {
    if (to - from < lower.length()) {
      return false;
    }
    for (int k = 0; k < lower.length(); k++) {
      int b = bytes[from + k];
      if ((b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b) != lower.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
