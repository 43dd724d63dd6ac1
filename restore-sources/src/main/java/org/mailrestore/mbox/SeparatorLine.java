package org.mailrestore.mbox;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The forms a line starting {@code From } takes when it separates messages. */
final class SeparatorLine {

  /**
   * A separator's sender: one word, or a local part quoted with spaces in it ({@code "john
   * smith"@example.org}), or nothing (two spaces after {@code From}, where the envelope had no
   * sender).
   */
  private static final String SENDER = "(?:\"[^\"]*\"\\S*|\\S+)?";

  /** {@code From <sender> <weekday> <month> <day> <hh:mm>...}: the form of a separator line. */
  private static final Pattern SEPARATOR =
      Pattern.compile(
          "From "
              + SENDER
              + "\\s+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\\s+)?"
              + "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\s+\\d{1,2}\\s+\\d{1,2}:\\d{2}.*",
          Pattern.DOTALL);

  /**
   * {@code From <sender> [<weekday>,] <day> <month> <year> <hh:mm>...}: an RFC 5322 date where
   * asctime's belongs, as some exporters write it.
   */
  private static final Pattern RFC5322_FORM =
      Pattern.compile(
          "From "
              + SENDER
              + "\\s+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\\s*)?\\d{1,2}\\s+"
              + "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\s+\\d{2,4}\\s+\\d{1,2}:\\d{2}.*",
          Pattern.DOTALL);

  /** {@code From <sender> <yyyy-mm-dd>[T ]<hh:mm>...}: an ISO 8601 date, as scripts write it. */
  private static final Pattern ISO_FORM =
      Pattern.compile(
          "From " + SENDER + "\\s+\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}.*", Pattern.DOTALL);

  /**
   * How far into a file its first separator may be. Text before it (an exporter's banner, the rest
   * of a message cut off at the front) is passed over and reported, not taken for a message.
   */
  static final int MAX_LEADING = 1 << 16;

  /** A separator line longer than this is not one. */
  static final int MAX_LENGTH = 4096;

  private SeparatorLine() {}

  /**
   * Which {@code From } lines separate a file's messages: those of a separator's form ({@code From
   * <sender> <date>}), and those like the file's first separator: a {@code From} and a single word
   * of the same shape (Netscape's and Thunderbird's {@code From -}, Google Takeout's {@code From
   * 1844347792267117879@xxx}), or, when the first is a sender's address alone ({@code From
   * alice@example.org}, as some exporters write without a date), any address alone; or a sender and
   * a date in the same other form as the first's ({@code From a@b Mon, 13 Feb 2006 10:00:00 +0100},
   * {@code From a@b 2006-02-13T10:00:00Z}). Any other {@code From } line is text a writer failed to
   * quote (as in "From Russia with love").
   */
  static final class Rule {
    private final String firstShape; // null when the first separator is not one word
    private final boolean addressAlone; // the first separator is an address and nothing else
    private final Pattern firstDateForm; // null when its date is asctime's

    Rule(String firstSeparator) {
      this.firstShape = shape(firstSeparator);
      this.addressAlone = isAddressAlone(firstSeparator);
      this.firstDateForm = otherDateForm(firstSeparator);
    }

    boolean separates(String line) {
      return (firstShape != null && firstShape.equals(shape(line)))
          || (addressAlone && isAddressAlone(line))
          || (firstDateForm != null && firstDateForm.matcher(line).matches())
          || hasDateForm(line);
    }
  }

  /**
   * An address with nothing after it ({@code From alice@example.org}, {@code From
   * <alice@example.org>}): each message's own sender, so a file separated so has a different word
   * on each separator.
   */
  private static final Pattern ADDRESS_ALONE =
      Pattern.compile("From <?[^\\s@<>]+@[^\\s@<>]+>?\\s*");

  static boolean isAddressAlone(String line) {
    return ADDRESS_ALONE.matcher(line).matches();
  }

  /**
   * Where the first message of a file starts in its first bytes: past its blank start ({@link
   * #pastBlankStart}), at the first line starting with {@code From }, or at a separator line after
   * text (see {@link #first(byte[], int, int)}); {@code head.length} when there is nothing else; -1
   * when no message starts.
   */
  static int first(byte[] head) {
    int i = pastBlankStart(head, 0, head.length);
    return i == head.length ? i : first(head, i, head.length);
  }

  /** Past a UTF-8 byte order mark some tools put at {@code from}, and the line ends after it. */
  static int pastBlankStart(byte[] b, int from, int to) {
    int i =
        to - from >= 3
                && b[from] == (byte) 0xEF
                && b[from + 1] == (byte) 0xBB
                && b[from + 2] == (byte) 0xBF
            ? from + 3
            : from;
    while (i < to && (b[i] == '\n' || b[i] == '\r')) {
      i++;
    }
    return i;
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
