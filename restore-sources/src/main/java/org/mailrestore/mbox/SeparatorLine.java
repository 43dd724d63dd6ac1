package org.mailrestore.mbox;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The forms a line starting {@code From } takes when it separates messages. */
final class SeparatorLine {

  /** {@code From <sender> <weekday> <month> <day> <hh:mm>...}: the form of a separator line. */
  private static final Pattern SEPARATOR =
      Pattern.compile(
          "From \\S+\\s+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\\s+)?"
              + "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\s+\\d{1,2}\\s+\\d{1,2}:\\d{2}.*",
          Pattern.DOTALL);

  /**
   * {@code From <sender> [<weekday>,] <day> <month> <year> <hh:mm>...}: an RFC 5322 date where
   * asctime's belongs, as some exporters write it.
   */
  private static final Pattern RFC5322_FORM =
      Pattern.compile(
          "From \\S+\\s+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\\s*)?\\d{1,2}\\s+"
              + "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\s+\\d{2,4}\\s+\\d{1,2}:\\d{2}.*",
          Pattern.DOTALL);

  /** {@code From <sender> <yyyy-mm-dd>[T ]<hh:mm>...}: an ISO 8601 date, as scripts write it. */
  private static final Pattern ISO_FORM =
      Pattern.compile("From \\S+\\s+\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}.*", Pattern.DOTALL);

  /**
   * How far into a file its first separator may be. Text before it (an exporter's banner, the rest
   * of a message cut off at the front) is passed over and reported, not taken for a message.
   */
  static final int MAX_LEADING = 1 << 16;

  /** A separator line longer than this is not one. */
  static final int MAX_LENGTH = 4096;

  private SeparatorLine() {}

  /**
   * Where the first message of a file starts in its first bytes: past a UTF-8 byte order mark and
   * blank lines, at the first line starting with {@code From }, or at a separator line after text
   * (see {@link #first}); {@code head.length} when there is nothing else; -1 when no message
   * starts.
   */
  static int first(byte[] head) {
    int i =
        head.length >= 3
                && head[0] == (byte) 0xEF
                && head[1] == (byte) 0xBB
                && head[2] == (byte) 0xBF
            ? 3
            : 0;
    while (i < head.length && (head[i] == '\n' || head[i] == '\r')) {
      i++;
    }
    return i == head.length ? i : first(head, i, head.length);
  }

  /**
   * Where the first message of a file starts within {@code head[from, to)}: {@code from} when the
   * line there starts with {@code From }, else the first later line of a separator's full form
   * ({@code From <sender> <asctime date>}: a one-word or other-dated line after text proves
   * nothing); -1 when there is none.
   */
  static int first(byte[] head, int from, int to) {
    for (int line = from; line < to; ) {
      int end = line;
      while (end < to && head[end] != '\n') {
        end++;
      }
      if (startsWithFrom(head, line, to)
          && (line == from
              || hasDateForm(
                  new String(
                      head,
                      line,
                      Math.min(end, line + MAX_LENGTH) - line,
                      StandardCharsets.ISO_8859_1)))) {
        return line;
      }
      line = end + 1;
    }
    return -1;
  }

  private static boolean startsWithFrom(byte[] b, int at, int to) {
    return to - at >= 5
        && b[at] == 'F'
        && b[at + 1] == 'r'
        && b[at + 2] == 'o'
        && b[at + 3] == 'm'
        && b[at + 4] == ' ';
  }

  /** Whether the line reads {@code From <sender> [<weekday>] <month> <day> <hh:mm>...}. */
  static boolean hasDateForm(String line) {
    return SEPARATOR.matcher(line).matches();
  }

  /**
   * The form of a file's first separator when its date is not asctime's but RFC 5322's or ISO
   * 8601's, else null. A later line of that same form separates messages too; one of another file's
   * form is text, as before.
   */
  static Pattern otherDateForm(String firstLine) {
    if (hasDateForm(firstLine)) {
      return null;
    }
    for (Pattern form : new Pattern[] {RFC5322_FORM, ISO_FORM}) {
      if (form.matcher(firstLine).matches()) {
        return form;
      }
    }
    return null;
  }

  /**
   * The shape of a one-word separator line ({@code From -}, {@code From 1844...@xxx}): its word
   * with each run of digits as one {@code 9}; null for a line of more words.
   */
  static String shape(String line) {
    if (line.length() <= 5) {
      return null;
    }
    String rest = line.substring("From ".length()).strip();
    if (rest.isEmpty() || rest.indexOf(' ') >= 0 || rest.indexOf('\t') >= 0) {
      return null;
    }
    return rest.replaceAll("[0-9]+", "9");
  }
}
