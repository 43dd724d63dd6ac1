package org.mailrestore.dav;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Values of a decoded Zimbra metadata dictionary ({@code ZimbraMetadata.decode}), read as Zimbra's
 * {@code Metadata} reads them: numbers and booleans written as text, lists numbered under a count.
 */
final class ZimbraValues {

  private ZimbraValues() {}

  /** Values Zimbra numbers under a count: {@code at0}, {@code at1}... up to {@code numAt}. */
  static List<Map<String, Object>> numbered(Map<String, Object> m, String count, String key) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (m == null) {
      return out;
    }
    long n = Math.min(number(m, count, 0), 10_000);
    for (int i = 0; i < n; i++) {
      Map<String, Object> v = map(m, key + i);
      if (v != null) {
        out.add(v);
      }
    }
    return out;
  }

  static List<String> strings(Map<String, Object> m, String count, String key) {
    List<String> out = new ArrayList<>();
    long n = Math.min(number(m, count, 0), 10_000);
    for (int i = 0; i < n; i++) {
      String v = str(m, key + i);
      if (v != null) {
        out.add(v);
      }
    }
    return out;
  }

  static Map<String, Object> map(Map<String, Object> m, String key) {
    return m != null && m.get(key) instanceof Map<?, ?> v ? asMap(v) : null;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }

  static Map<String, Object> asMap(Object m) {
    return asMap((Map<?, ?>) m);
  }

  static String str(Map<String, Object> m, String key) {
    Object v = m.get(key);
    if (v == null || v instanceof Map || v instanceof List) {
      return null;
    }
    String s = v.toString();
    return s.isEmpty() ? null : s;
  }

  static long number(Map<String, Object> m, String key, long otherwise) {
    String s = str(m, key);
    if (s == null) {
      return otherwise;
    }
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  static boolean truth(String s) {
    return s != null && ("1".equals(s) || "true".equalsIgnoreCase(s));
  }
}
