package org.mailrestore.message;

import java.io.ByteArrayOutputStream;
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
  private static final Pattern CHARSET_PARAMETER =
      Pattern.compile("(?i)\\bcharset\\s*=\\s*\"?([^\";\\s]+)");
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
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
   * line ({@code From ...}) before the fields is passed over. Values are UTF-8 when their bytes
   * are; raw 8-bit bytes that are not are read in the charset the message's {@code Content-Type}
   * names (as mail clients do: old mail sent KOI8-R or Shift_JIS subjects so), else as
   * Windows-1252.
   */
  public static String[] fields(byte[] head, int length, String... wanted) {
    String[] names = java.util.Arrays.copyOf(wanted, wanted.length + 1);
    names[wanted.length] = "content-type";
    // Collected as ISO-8859-1, which keeps every byte, and decoded once the charset is known.
    String[] raw = new String[names.length];
    int current = -1; // the field being unfolded, or -1
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
          value.append(' ').append(bytes(head, lineStart, lineEnd).strip());
        }
        continue;
      }
      if (current >= 0) {
        raw[current] = value.toString();
      }
      current = -1;
      int colon = lineStart;
      while (colon < lineEnd && head[colon] != ':') {
        colon++;
      }
      if (colon > lineStart && colon < lineEnd) {
        for (int i = 0; i < names.length; i++) {
          if (raw[i] == null && isName(head, lineStart, colon, names[i])) {
            current = i;
            value.setLength(0);
            value.append(bytes(head, colon + 1, lineEnd).strip());
          }
        }
      }
    }
    if (current >= 0) {
      raw[current] = value.toString();
    }
    String[] values = new String[wanted.length];
    Charset fallback = null; // looked up for the first value with 8-bit bytes: most have none
    for (int i = 0; i < wanted.length; i++) {
      if (raw[i] == null || isAscii(raw[i])) {
        values[i] = raw[i]; // read as Latin-1, so ASCII bytes are already their text
        continue;
      }
      if (fallback == null) {
        fallback = declaredCharset(raw[wanted.length]);
      }
      byte[] bytes = raw[i].getBytes(StandardCharsets.ISO_8859_1);
      values[i] = text(bytes, 0, bytes.length, fallback);
    }
    return values;
  }

  private static String bytes(byte[] head, int from, int to) {
    return new String(head, from, to - from, StandardCharsets.ISO_8859_1);
  }

  /** The charset a Content-Type names for raw header bytes; Windows-1252 when none (or UTF-8). */
  private static Charset declaredCharset(String contentType) {
    Matcher m = contentType == null ? null : CHARSET_PARAMETER.matcher(contentType);
    Charset declared = m != null && m.find() ? MailCharsets.forLabel(m.group(1)) : null;
    return declared == null || declared.equals(StandardCharsets.UTF_8) ? WINDOWS_1252 : declared;
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

  /** Bytes as text: UTF-8 when they are valid UTF-8, else {@code fallback} (never fails). */
  public static String text(byte[] bytes, int offset, int length, Charset fallback) {
    if (isAscii(bytes, offset, length)) {
      return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }
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

  private static boolean isAscii(String latin1) {
    for (int i = 0; i < latin1.length(); i++) {
      if (latin1.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAscii(byte[] bytes, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Decodes RFC 2047 encoded words; words it cannot decode stay as they are. The bytes of adjacent
   * words in one charset are decoded together, as mail readers do: writers split long subjects at
   * any byte, even inside a character.
   */
  public static String decodeWords(String value) {
    if (!value.contains("=?")) {
      return value;
    }
    String joined = BETWEEN_ENCODED_WORDS.matcher(value).replaceAll("$1$2");
    Matcher m = ENCODED_WORD.matcher(joined);
    StringBuilder sb = new StringBuilder();
    int copied = 0; // joined up to here is in sb or in the run
    String runCharset = null; // the charset of the run of adjacent words being gathered
    String runText = null; // the run's words as they are, should its charset be unknown
    ByteArrayOutputStream run = new ByteArrayOutputStream();
    while (m.find()) {
      byte[] bytes = wordBytes(m.group(2), m.group(3));
      boolean adjacent = runCharset != null && m.start() == copied;
      if (adjacent && bytes != null && runCharset.equalsIgnoreCase(m.group(1))) {
        run.writeBytes(bytes);
        runText += m.group();
        copied = m.end();
        continue;
      }
      if (runCharset != null) {
        sb.append(decodeRun(run.toByteArray(), runCharset, runText));
        runCharset = null;
      }
      sb.append(joined, copied, m.start());
      if (bytes == null) {
        sb.append(m.group()); // not decodable: the word as it is
      } else {
        runCharset = m.group(1);
        runText = m.group();
        run.reset();
        run.writeBytes(bytes);
      }
      copied = m.end();
    }
    if (runCharset != null) {
      sb.append(decodeRun(run.toByteArray(), runCharset, runText));
    }
    sb.append(joined, copied, joined.length());
    return sb.toString();
  }

  /** A word's bytes, or null when its text is not valid in its encoding. */
  private static byte[] wordBytes(String encoding, String text) {
    try {
      if (!encoding.equalsIgnoreCase("B")) {
        return quotedPrintable(text);
      }
      // Strictly: the MIME decoder skips what is not base64, and a broken word became noise.
      // Padding is not required, and a stray one is forgiven.
      int end = text.length();
      while (end > 0 && text.charAt(end - 1) == '=') {
        end--;
      }
      return Base64.getDecoder().decode(text.substring(0, end));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The text of a run of words, or the words as they are when nobody knows its charset. */
  private static String decodeRun(byte[] bytes, String charset, String asTheyAre) {
    String decoded = MailCharsets.decode(bytes, charset);
    return decoded != null ? decoded : asTheyAre;
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
