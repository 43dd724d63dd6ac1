package org.mailrestore.mail;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Mailbox names in modified UTF-7 (RFC 3501 §5.1.3): printable ASCII as itself, {@code &} as {@code
 * &-}, anything else as UTF-16 in a modified base64 ({@code ,} for {@code /}, no padding) between
 * {@code &} and {@code -}. IMAP puts names on the wire so, and Dovecot and Courier name their
 * Maildir++ folder directories so.
 */
public final class ModifiedUtf7 {

  private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getDecoder();

  private ModifiedUtf7() {}

  public static String encode(String name) {
    StringBuilder out = new StringBuilder(name.length() + 8);
    int i = 0;
    while (i < name.length()) {
      char c = name.charAt(i);
      if (c >= 0x20 && c <= 0x7e) {
        out.append(c == '&' ? "&-" : String.valueOf(c));
        i++;
        continue;
      }
      int end = i;
      while (end < name.length() && (name.charAt(end) < 0x20 || name.charAt(end) > 0x7e)) {
        end++;
      }
      byte[] utf16 = name.substring(i, end).getBytes(StandardCharsets.UTF_16BE);
      out.append('&').append(ENCODER.encodeToString(utf16).replace('/', ',')).append('-');
      i = end;
    }
    return out.toString();
  }

  /**
   * @throws IllegalArgumentException when the name is not valid modified UTF-7
   */
  public static String decode(String wire) {
    StringBuilder out = new StringBuilder(wire.length());
    int i = 0;
    while (i < wire.length()) {
      char c = wire.charAt(i);
      if (c != '&') {
        out.append(c);
        i++;
        continue;
      }
      int end = wire.indexOf('-', i + 1);
      if (end < 0) {
        throw new IllegalArgumentException("unterminated '&' in mailbox name " + wire);
      }
      if (end == i + 1) {
        out.append('&');
      } else {
        byte[] utf16 = DECODER.decode(wire.substring(i + 1, end).replace(',', '/'));
        if (utf16.length % 2 != 0) {
          throw new IllegalArgumentException("odd UTF-16 length in mailbox name " + wire);
        }
        out.append(StandardCharsets.UTF_16BE.decode(ByteBuffer.wrap(utf16)));
      }
      i = end + 1;
    }
    return out.toString();
  }

  /**
   * The name a file system name stands for when it is written in modified UTF-7, else the name as
   * it is. Only a name its encoder would write exactly so is decoded (printable ASCII, canonical
   * base64, no printable ASCII inside a shift, whole surrogate pairs): a name written in UTF-8 by a
   * server configured so ({@code R&D-Team}, {@code Entwürfe}) is left alone.
   */
  public static String decodeIfEncoded(String name) {
    if (name.indexOf('&') < 0) {
      return name;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return name;
      }
    }
    String decoded;
    try {
      decoded = decode(name);
    } catch (IllegalArgumentException e) {
      return name;
    }
    return encode(decoded).equals(name) ? decoded : name;
  }
}
