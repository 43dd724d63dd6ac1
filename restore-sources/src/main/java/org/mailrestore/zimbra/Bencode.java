package org.mailrestore.zimbra;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Zimbra's bencoding of item metadata: {@code d}key value...{@code e} with keys sorted, {@code
 * l}...{@code e}, {@code i}number{@code e}, and {@code <length>:<text>} where the length counts
 * UTF-16 code units (Java characters), not bytes. Booleans and decimals are written as text.
 *
 * <p>The decoder is strict (a length that runs past the end, a missing {@code e}, trailing text are
 * errors with the position) and bounded in depth. Like Zimbra's, it tries once more after reading
 * the text as UTF-8 bytes taken for ISO-8859-1, an old corruption of Zimbra's own.
 */
final class Bencode {

  private static final int MAX_DEPTH = 64;

  /** The metadata is not bencoding. */
  static final class BencodeException extends Exception {
    BencodeException(String message) {
      super(message);
    }
  }

  private Bencode() {}

  /**
   * Decodes a value: a {@code Map<String, Object>} (sorted), a {@code List<Object>}, a {@link Long}
   * or a {@link String}.
   */
  static Object decode(String text) throws BencodeException {
    try {
      return new Decoder(text).whole();
    } catch (BencodeException first) {
      String repaired = latin1AsUtf8(text);
      if (repaired != null) {
        try {
          return new Decoder(repaired).whole();
        } catch (BencodeException second) {
          // report the first error: it is about the text as it is
        }
      }
      throw first;
    }
  }

  /** The metadata as a dictionary; empty text is an empty one. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> decodeMap(String text) throws BencodeException {
    if (text == null || text.isEmpty()) {
      return new TreeMap<>();
    }
    Object value = decode(text);
    if (!(value instanceof Map)) {
      throw new BencodeException("the metadata is not a dictionary");
    }
    return (Map<String, Object>) value;
  }

  static String encode(Object value) {
    StringBuilder sb = new StringBuilder();
    encode(sb, value);
    return sb.toString();
  }

  private static void encode(StringBuilder sb, Object value) {
    if (value instanceof Map<?, ?> map) {
      sb.append('d');
      TreeMap<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> {
        if (k != null && v != null) {
          sorted.put(k.toString(), v);
        }
      });
      sorted.forEach((k, v) -> {
        encode(sb, k);
        encode(sb, v);
      });
      sb.append('e');
    } else if (value instanceof List<?> list) {
      sb.append('l');
      for (Object v : list) {
        if (v != null) {
          encode(sb, v);
        }
      }
      sb.append('e');
    } else if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      sb.append('i').append(value).append('e');
    } else if (value != null) {
      String s = value.toString();
      sb.append(s.length()).append(':').append(s);
    }
  }

  /** The text re-read as UTF-8 when every character is a byte, else null. */
  private static String latin1AsUtf8(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) > 0xff) {
        return null;
      }
    }
    String repaired =
        new String(text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    return repaired.equals(text) || repaired.indexOf('\uFFFD') >= 0 ? null : repaired;
  }

  private static final class Decoder {
    private final String text;
    private int at;

    Decoder(String text) {
      this.text = text;
    }

    Object whole() throws BencodeException {
      Object value = value(0);
      if (value == null) {
        throw error("an 'e' with nothing to end");
      }
      if (at != text.length()) {
        throw error((text.length() - at) + " characters after the end of the value");
      }
      return value;
    }

    /** The next value, or null at an 'e'. */
    private Object value(int depth) throws BencodeException {
      if (depth > MAX_DEPTH) {
        throw error("values nested deeper than " + MAX_DEPTH);
      }
      if (at >= text.length()) {
        throw error("the text ends where a value should start");
      }
      char c = text.charAt(at);
      switch (c) {
        case 'd' -> {
          at++;
          Map<String, Object> map = new TreeMap<>();
          while (true) {
            Object key = value(depth + 1);
            if (key == null) {
              return map;
            }
            Object v = value(depth + 1);
            if (v == null) {
              throw error("a key without its value");
            }
            map.put(key.toString(), v);
          }
        }
        case 'l' -> {
          at++;
          List<Object> list = new ArrayList<>();
          Object v;
          while ((v = value(depth + 1)) != null) {
            list.add(v);
          }
          return list;
        }
        case 'e' -> {
          at++;
          return null;
        }
        case 'i' -> {
          at++;
          return number('e');
        }
        default -> {
          if (c < '0' || c > '9') {
            throw error("a value cannot start with this character");
          }
          long length = number(':');
          if (length < 0) {
            throw error("a text of negative length");
          }
          if (length > text.length() - at) {
            throw error(
                "a text of "
                    + length
                    + " characters is announced but only "
                    + (text.length() - at)
                    + " remain");
          }
          String s = text.substring(at, at + (int) length);
          at += (int) length;
          return s;
        }
      }
    }

    private long number(char terminator) throws BencodeException {
      int start = at;
      int end = text.indexOf(terminator, at);
      if (end < 0 || end - start > 20) {
        throw error("a number without its '" + terminator + "'");
      }
      try {
        long value = Long.parseLong(text.substring(start, end));
        at = end + 1;
        return value;
      } catch (NumberFormatException e) {
        throw error("a number that is not one");
      }
    }

    private BencodeException error(String what) {
      return new BencodeException(what + " at character " + at);
    }
  }
}
