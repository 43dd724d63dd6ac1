package org.mailrestore.imap;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.mailrestore.destination.ItemBatch.ItemToWrite;

/**
 * A message ready to append: its bytes as IMAP carries them (CRLF), where it goes, its flags and
 * keywords and its INTERNALDATE.
 *
 * @param crlf the bytes sent (and what the server should hand back)
 * @param lineEndings how the source's lines ended, to read it back as it was
 * @param bareLines for mixed line endings, which were bare LF ({@link LineEndings#bareLines})
 * @param flags IMAP flags and keywords
 * @param date INTERNALDATE in epoch milliseconds, or 0 to let the server choose
 * @param messageId the Message-ID header's value (whitespace removed), or null
 */
record Appending(
    ItemToWrite item,
    int folderId,
    String folder,
    byte[] crlf,
    LineEndings lineEndings,
    byte[] bareLines,
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
    command.literal(crlf);
  }

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
      String line = new String(message, i, lineEnd - i, StandardCharsets.ISO_8859_1);
      if (line.regionMatches(true, 0, "Message-ID:", 0, 11)) {
        StringBuilder value = new StringBuilder(line.substring(11));
        int next = end + 1;
        while (next < n && (message[next] == ' ' || message[next] == '\t')) {
          int e = next;
          while (e < n && message[e] != '\n') {
            e++;
          }
          value.append(new String(message, next, e - next, StandardCharsets.ISO_8859_1));
          next = e + 1;
        }
        String id = value.toString().replaceAll("\\s+", "");
        return id.isEmpty() ? null : id.toLowerCase(Locale.ROOT);
      }
      i = end + 1;
    }
    return null;
  }
}
