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

  private SeparatorLine() {}

  /** Whether the line reads {@code From <sender> [<weekday>] <month> <day> <hh:mm>...}. */
  static boolean hasDateForm(String line) {
    return SEPARATOR.matcher(line).matches();
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
