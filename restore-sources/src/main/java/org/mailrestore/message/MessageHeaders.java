package org.mailrestore.message;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mailrestore.mail.TextRules;

/**
 * The fields a mail list shows, read leniently from the start of a message: sender, subject, date.
 * The message itself (the blob) stays the authority, byte for byte; these are display copies, so
 * bad bytes are replaced rather than refused.
 *
 * @param date epoch milliseconds, or null when the Date header is missing or unreadable
 */
public record MessageHeaders(String sender, String subject, Long date) {

  private static final Pattern ENCODED_WORD =
      Pattern.compile("=\\?([^?\\s]+)\\?([BbQq])\\?([^?\\s]*)\\?=");
  private static final Pattern BETWEEN_ENCODED_WORDS = Pattern.compile("(\\?=)\\s+(=\\?)");
  private static final Pattern COMMENT = Pattern.compile("\\([^()]*\\)");
  private static final DateTimeFormatter WITHOUT_DAY_NAME =
      DateTimeFormatter.ofPattern("d MMM yyyy H:mm[:ss] Z", Locale.ROOT);

  public static final MessageHeaders NONE = new MessageHeaders(null, null, null);

  /** Parses the header block at the start of {@code head} (which may end anywhere). */
  public static MessageHeaders parse(byte[] head, int length) {
    String[] values = fields(head, length, "from", "subject", "date");
    return new MessageHeaders(
        clean(values[0] == null ? null : decodeWords(values[0]), TextRules.MAX_SENDER_LENGTH),
        clean(values[1] == null ? null : decodeWords(values[1]), TextRules.MAX_SUBJECT_LENGTH),
        parseDate(values[2]));
  }

  /**
   * The first value of each wanted header field (lower-case names) in the header block at the start
   * of {@code head}, unfolded and stripped, or null where the field is missing. An mbox separator
   * line ({@code From ...}) before the fields is passed over.
   */
  public static String[] fields(byte[] head, int length, String... wanted) {
    String[] values = new String[wanted.length];
    int current = -1; // the wanted field being unfolded, or -1
    StringBuilder value = new StringBuilder();
    int start = 0;
    boolean first = true;
    while (start < length) {
      int end = start;
      while (end < length && head[end] != '\n') {
        end++;
      }
      int lineEnd = end > start && head[end - 1] == '\r' ? end - 1 : end;
      int lineStart = start;
      start = end + 1;
      if (lineEnd == lineStart) {
        break; // the blank line: the body starts
      }
      boolean mboxSeparator = first && startsWith(head, lineStart, lineEnd, "From ");
      first = false;
      if (mboxSeparator) {
        continue;
      }
      // Names are ASCII: they are matched as bytes, and only the wanted values become text.
      if (head[lineStart] == ' ' || head[lineStart] == '\t') {
        if (current >= 0) {
          value.append(' ').append(text(head, lineStart, lineEnd - lineStart).strip());
        }
        continue;
      }
      if (current >= 0) {
        values[current] = value.toString();
      }
      current = -1;
      int colon = lineStart;
      while (colon < lineEnd && head[colon] != ':') {
        colon++;
      }
      if (colon > lineStart && colon < lineEnd) {
        for (int i = 0; i < wanted.length; i++) {
          if (values[i] == null && isName(head, lineStart, colon, wanted[i])) {
            current = i;
            value.setLength(0);
            value.append(text(head, colon + 1, lineEnd - colon - 1).strip());
          }
        }
      }
    }
    if (current >= 0) {
      values[current] = value.toString();
    }
    return values;
  }

  private static boolean startsWith(byte[] bytes, int from, int to, String prefix) {
    if (to - from < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (bytes[from + i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the bytes, white space around them left out, are this lower-case name in any case. */
  private static boolean isName(byte[] bytes, int from, int to, String name) {
    while (from < to && (bytes[from] == ' ' || bytes[from] == '\t')) {
      from++;
    }
    while (to > from && (bytes[to - 1] == ' ' || bytes[to - 1] == '\t')) {
      to--;
    }
    if (to - from != name.length()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      int b = bytes[from + i];
      if (b >= 'A' && b <= 'Z') {
        b += 'a' - 'A';
      }
      if (b != name.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Header bytes as text: UTF-8 when they are valid UTF-8, else ISO-8859-1 (never fails). */
  public static String text(byte[] bytes, int offset, int length) {
    return text(bytes, offset, length, StandardCharsets.ISO_8859_1);
  }

  /** Bytes as text: UTF-8 when they are valid UTF-8, else {@code fallback} (a one-byte charset). */
  public static String text(byte[] bytes, int offset, int length, Charset fallback) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, offset, length))
          .toString();
    } catch (CharacterCodingException e) {
      return new String(bytes, offset, length, fallback);
    }
  }

  /** Decodes RFC 2047 encoded words; words it cannot decode stay as they are. */
  public static String decodeWords(String value) {
    if (!value.contains("=?")) {
      return value;
    }
    String joined = BETWEEN_ENCODED_WORDS.matcher(value).replaceAll("$1$2");
    Matcher m = ENCODED_WORD.matcher(joined);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String decoded;
      try {
        Charset charset = Charset.forName(m.group(1).split("\\*")[0]);
        byte[] bytes =
            m.group(2).equalsIgnoreCase("B")
                ? Base64.getMimeDecoder().decode(m.group(3))
                : quotedPrintable(m.group(3));
        decoded = new String(bytes, charset);
      } catch (IllegalArgumentException e) {
        decoded = m.group();
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(decoded));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static byte[] quotedPrintable(String text) {
    byte[] out = new byte[text.length()];
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '_') {
        out[n++] = ' ';
      } else if (c == '=' && i + 2 < text.length()) {
        int high = Character.digit(text.charAt(i + 1), 16);
        int low = Character.digit(text.charAt(i + 2), 16);
        if (high < 0 || low < 0) {
          throw new IllegalArgumentException("bad quoted-printable");
        }
        out[n++] = (byte) (high * 16 + low);
        i += 2;
      } else {
        out[n++] = (byte) c;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * A display value that the mailstore accepts: control characters and unpaired surrogates become
   * spaces or U+FFFD, runs of white space one space, cut to {@code max} characters.
   */
  public static String clean(String value, int max) {
    if (value == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder(Math.min(value.length(), max + 1));
    boolean space = false;
    for (int i = 0; i < value.length() && sb.length() < max; i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || Character.isWhitespace(c)) {
        space = sb.length() > 0;
        continue;
      }
      if (space) {
        sb.append(' ');
        space = false;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        if (sb.length() + 2 > max) {
          break;
        }
        sb.append(c).append(value.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        sb.append('\uFFFD');
      } else {
        sb.append(c);
      }
    }
    String s = sb.toString();
    return s.isEmpty() ? null : s;
  }

  /** Epoch milliseconds of an RFC 5322 date, or null. */
  public static Long parseDate(String value) {
    if (value == null) {
      return null;
    }
    Long common = CommonDates.parse(value);
    return common != null ? common : generalDate(value);
  }

  /** {@link #parseDate} through the formatters, for every shape. */
  static Long generalDate(String value) {
    String v =
        plain(value)
            ? value.strip()
            : COMMENT.matcher(value).replaceAll(" ").replaceAll("\\s+", " ").strip();
    try {
      return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME)
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      // try without the day name
    }
    int comma = v.indexOf(',');
    try {
      return ZonedDateTime.parse(v.substring(comma + 1).strip(), WITHOUT_DAY_NAME)
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Whether a date has no comment and no run of white space to fold (most do not). */
  private static boolean plain(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '('
          || (Character.isWhitespace(c) && (c != ' ' || (i > 0 && value.charAt(i - 1) == ' ')))) {
        return false;
      }
    }
    return true;
  }
}
