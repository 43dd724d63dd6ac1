package org.mailrestore.mbox;

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

  private SeparatorLine() {}

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
