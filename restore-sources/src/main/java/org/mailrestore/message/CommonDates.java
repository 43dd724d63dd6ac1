package org.mailrestore.message;

import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * The usual shape of a Date header, {@code [Mon, ]14 May 2001 16:39[:00] -0700 [(PDT)]}, read by
 * hand: the formatter-based parse costs about 7% of a Maildir restore's CPU. Any other shape (a
 * zone name, a two-digit year, an invalid day) returns null and takes the general path, so the
 * result is always the general parse's.
 */
final class CommonDates {

  private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

  private CommonDates() {}

  /** Epoch milliseconds, or null when the value is not in the usual shape. */
  static Long parse(String v) {
    Cursor c = new Cursor(v);
    c.spaces();
    int comma = v.indexOf(',');
    if (comma >= 0) {
      c.at = comma + 1;
      c.spaces();
    }
    int day = c.number(1, 2);
    if (day < 0 || !c.space()) {
      return null;
    }
    int month = c.month();
    if (month < 0 || !c.space()) {
      return null;
    }
    int year = c.number(4, 4);
    if (year < 1 || !c.space()) {
      return null;
    }
    int hour = c.number(1, 2);
    if (hour < 0 || hour > 23 || !c.skip(':')) {
      return null;
    }
    int minute = c.number(2, 2);
    int second = 0;
    if (c.skip(':')) {
      second = c.number(2, 2);
    }
    if (minute < 0 || minute > 59 || second < 0 || second > 59 || !c.space()) {
      return null;
    }
    int offset = c.offset();
    if (offset == Integer.MIN_VALUE || !c.onlyCommentLeft()) {
      return null;
    }
    long epochDay;
    try {
      epochDay = LocalDate.of(year, month, day).toEpochDay();
    } catch (DateTimeException e) {
      return null;
    }
    long seconds = epochDay * 86_400 + hour * 3_600L + minute * 60L + second - offset;
    return seconds * 1000;
  }

  private static final class Cursor {
    private final String v;
    private int at;

    Cursor(String v) {
      this.v = v;
    }

    void spaces() {
      while (at < v.length() && v.charAt(at) == ' ') {
        at++;
      }
    }

    /** At least one space, passed over. */
    boolean space() {
      int from = at;
      spaces();
      return at > from;
    }

    boolean skip(char c) {
      if (at < v.length() && v.charAt(at) == c) {
        at++;
        return true;
      }
      return false;
    }

    /** A number of min to max ASCII digits, or -1. */
    int number(int min, int max) {
      int n = 0;
      int digits = 0;
      while (digits < max && at < v.length() && v.charAt(at) >= '0' && v.charAt(at) <= '9') {
        n = n * 10 + (v.charAt(at++) - '0');
        digits++;
      }
      boolean more = at < v.length() && v.charAt(at) >= '0' && v.charAt(at) <= '9';
      return digits >= min && !more ? n : -1;
    }

    /** 1 to 12 for an English month abbreviation (as the general parse: first letter capital). */
    int month() {
      if (at + 3 > v.length()) {
        return -1;
      }
      String name = v.substring(at, at + 3);
      int i = MONTHS.indexOf(name);
      if (i < 0 || i % 3 != 0) {
        return -1;
      }
      at += 3;
      return i / 3 + 1;
    }

    /**
     * Seconds east of UTC of {@code +HHMM} or {@code -HHMM}, or MIN_VALUE. ({@code GMT} is left to
     * the general parse, which takes it only after a day name that fits the date.)
     */
    int offset() {
      if (at >= v.length() || (v.charAt(at) != '+' && v.charAt(at) != '-')) {
        return Integer.MIN_VALUE;
      }
      int sign = v.charAt(at++) == '-' ? -1 : 1;
      int hhmm = number(4, 4);
      if (hhmm < 0 || hhmm / 100 > 18 || hhmm % 100 > 59 || hhmm > 1800) {
        return Integer.MIN_VALUE;
      }
      return sign * (hhmm / 100 * 3_600 + hhmm % 100 * 60);
    }

    /** Whether only spaces and one comment without nested parentheses remain. */
    boolean onlyCommentLeft() {
      spaces();
      if (skip('(')) {
        while (at < v.length() && v.charAt(at) != ')') {
          if (v.charAt(at) == '(') {
            return false;
          }
          at++;
        }
        if (!skip(')')) {
          return false;
        }
        spaces();
      }
      return at == v.length();
    }
  }
}
