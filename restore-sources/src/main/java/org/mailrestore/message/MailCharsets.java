package org.mailrestore.message;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The charsets mail names, read as mail clients read them: a label Java does not know (Outlook's
 * {@code ks_c_5601-1987}, {@code iso-8859-8-i}, {@code x-mac-roman}, {@code unknown-8bit}) is
 * mapped to the charset it means, and a label is widened to the superset its writers really used
 * ({@code iso-8859-1} text holds Windows-1252's quotes, {@code gb2312} text GBK's characters), as
 * the WHATWG Encoding Standard and Thunderbird do. UTF-7, which Java lacks, is decoded here.
 */
public final class MailCharsets {

  /** Labels (lower case) to the charset Java knows them by. */
  private static final Map<String, String> LABELS =
      Map.ofEntries(
          Map.entry("iso-8859-1", "windows-1252"),
          Map.entry("iso8859-1", "windows-1252"),
          Map.entry("latin1", "windows-1252"),
          Map.entry("l1", "windows-1252"),
          Map.entry("us-ascii", "windows-1252"),
          Map.entry("ascii", "windows-1252"),
          Map.entry("ansi_x3.4-1968", "windows-1252"),
          Map.entry("unknown-8bit", "windows-1252"),
          Map.entry("unknown", "windows-1252"),
          Map.entry("x-unknown", "windows-1252"),
          Map.entry("x-user-defined", "windows-1252"),
          Map.entry("8bit", "windows-1252"),
          Map.entry("default", "windows-1252"),
          Map.entry("iso-8859-9", "windows-1254"),
          Map.entry("latin5", "windows-1254"),
          Map.entry("iso-8859-11", "x-windows-874"),
          Map.entry("tis-620", "x-windows-874"),
          Map.entry("windows-874", "x-windows-874"),
          Map.entry("iso-8859-6-i", "ISO-8859-6"),
          Map.entry("iso-8859-6-e", "ISO-8859-6"),
          Map.entry("iso-8859-8-i", "ISO-8859-8"),
          Map.entry("iso-8859-8-e", "ISO-8859-8"),
          Map.entry("gb2312", "GBK"),
          Map.entry("gb_2312-80", "GBK"),
          Map.entry("x-gbk", "GBK"),
          Map.entry("cn-gb", "GBK"),
          Map.entry("euc-cn", "GBK"),
          Map.entry("big5", "Big5-HKSCS"),
          Map.entry("x-x-big5", "Big5-HKSCS"),
          Map.entry("ks_c_5601-1987", "x-windows-949"),
          Map.entry("ks_c_5601", "x-windows-949"),
          Map.entry("euc-kr", "x-windows-949"),
          Map.entry("shift_jis", "windows-31j"),
          Map.entry("shift-jis", "windows-31j"),
          Map.entry("x-sjis", "windows-31j"),
          Map.entry("sjis", "windows-31j"),
          Map.entry("x-mac-roman", "x-MacRoman"),
          Map.entry("mac", "x-MacRoman"),
          Map.entry("macintosh", "x-MacRoman"),
          Map.entry("x-mac-cyrillic", "x-MacCyrillic"),
          Map.entry("cp-850", "IBM850"),
          Map.entry("cp-866", "IBM866"),
          Map.entry("utf8", "UTF-8"),
          Map.entry("unicode-1-1-utf-8", "UTF-8"));

  private MailCharsets() {}

  /** The charset a label means, or null when none is known by it. */
  public static Charset forLabel(String label) {
    if (label == null) {
      return null;
    }
    String name = label.strip().toLowerCase(Locale.ROOT);
    int language = name.indexOf('*'); // RFC 2231: charset*language
    if (language >= 0) {
      name = name.substring(0, language);
    }
    String mapped = LABELS.getOrDefault(name, name);
    try {
      return Charset.forName(mapped);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Bytes as text in the charset a label means; null when the label means none known. */
  public static String decode(byte[] bytes, String label) {
    String name = label == null ? "" : label.strip().toLowerCase(Locale.ROOT);
    if (name.equals("utf-7") || name.equals("unicode-1-1-utf-7") || name.equals("x-utf-7")) {
      return utf7(new String(bytes, StandardCharsets.US_ASCII));
    }
    Charset charset = forLabel(label);
    return charset == null ? null : new String(bytes, charset);
  }

  /**
   * UTF-7 (RFC 2152): ASCII as itself, anything else as UTF-16 in base64 between {@code +} and an
   * optional {@code -}; {@code +-} is {@code +}. Outlook and old Exchange servers wrote it.
   */
  static String utf7(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i++);
      if (c != '+') {
        out.append(c);
        continue;
      }
      int end = i;
      while (end < text.length() && isBase64(text.charAt(end))) {
        end++;
      }
      if (end == i) {
        out.append('+'); // "+-", or a '+' no writer meant as a shift
      } else {
        String run = text.substring(i, end);
        byte[] utf16 =
            Base64.getDecoder().decode(run + "==".substring(0, (4 - run.length() % 4) % 4));
        out.append(StandardCharsets.UTF_16BE.decode(ByteBuffer.wrap(utf16, 0, utf16.length & ~1)));
      }
      i = end < text.length() && text.charAt(end) == '-' ? end + 1 : end;
    }
    return out.toString();
  }

  private static boolean isBase64(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '+'
        || c == '/';
  }
}
