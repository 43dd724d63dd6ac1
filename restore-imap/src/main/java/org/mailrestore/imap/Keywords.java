package org.mailrestore.imap;

import java.util.Locale;
import java.util.Set;

/**
 * Tags as IMAP keywords. A keyword is an atom (RFC 3501 §9: no space, no {@code ( ) { % * " \ ]},
 * ASCII only), so other characters become {@code _}; a keyword already taken by another tag gets a
 * number. The tag's own name is kept in the target's records and read back from there.
 */
final class Keywords {

  private Keywords() {}

  /** A keyword for the tag, unlike those in {@code taken} (lower case). */
  static String of(String tagName, Set<String> taken) {
    StringBuilder sb = new StringBuilder(tagName.length());
    for (int i = 0; i < tagName.length(); i++) {
      char c = tagName.charAt(i);
      boolean atom = c > 0x20 && c < 0x7f && "(){%*\"\\]".indexOf(c) < 0;
      sb.append(atom ? c : '_');
    }
    if (sb.isEmpty() || sb.charAt(0) == '\\' || sb.charAt(0) == '$') {
      sb.insert(0, 'T');
    }
    String base = sb.length() > 200 ? sb.substring(0, 200) : sb.toString();
    String keyword = base;
    for (int n = 2; taken.contains(keyword.toLowerCase(Locale.ROOT)); n++) {
      keyword = base + "_" + n;
    }
    return keyword;
  }
}
