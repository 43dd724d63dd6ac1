package org.mailrestore.mail;

import java.util.Locale;
import java.util.Set;

/**
 * Tags as IMAP keywords, as IMAP servers and Dovecot's Maildir keep them. A keyword is an atom (RFC
 * 3501 §9: no space, no {@code ( ) { % * " \ ]}, ASCII only), so other characters become {@code _};
 * a keyword already taken by another tag gets a number. {@code $Forwarded} and {@code $MDNSent}
 * are the forwarded and notified flags, so a tag of that name gets a {@code T} in front; other
 * {@code $} keywords ({@code $Junk}, {@code $label1}) stay as mail clients know them.
 */
public final class Keywords {

  /** The keyword of Zimbra's forwarded flag. */
  public static final String FORWARDED = "$Forwarded";

  /** The keyword of Zimbra's notified flag (a read receipt was sent). */
  public static final String MDN_SENT = "$MDNSent";

  /**
   * Keywords that say what a junk filter decided (Thunderbird's, Apple Mail's, RFC 5788's): a
   * state, not a tag anybody chose.
   */
  private static final Set<String> JUNK_VERDICTS =
      Set.of("junk", "nonjunk", "notjunk", "$junk", "$notjunk", "$nonjunk");

  private Keywords() {}

  /** Whether a keyword is a junk filter's verdict, which restores as no tag. */
  public static boolean isJunkVerdict(String keyword) {
    return JUNK_VERDICTS.contains(keyword.toLowerCase(Locale.ROOT));
  }

  /** A keyword for the tag, unlike those in {@code taken} (lower case). */
  public static String of(String tagName, Set<String> taken) {
    StringBuilder sb = new StringBuilder(tagName.length());
    for (int i = 0; i < tagName.length(); i++) {
      char c = tagName.charAt(i);
      boolean atom = c > 0x20 && c < 0x7f && "(){%*\"\\]".indexOf(c) < 0;
      sb.append(atom ? c : '_');
    }
    if (sb.isEmpty() || isFlag(sb.toString())) {
      sb.insert(0, 'T');
    }
    String base = sb.length() > 200 ? sb.substring(0, 200) : sb.toString();
    String keyword = base;
    for (int n = 2; taken.contains(keyword.toLowerCase(Locale.ROOT)); n++) {
      keyword = base + "_" + n;
    }
    return keyword;
  }

  /** Whether a keyword stands for one of Zimbra's flags rather than for a tag. */
  public static boolean isFlag(String keyword) {
    return flagOf(keyword) != 0;
  }

  /** The Zimbra flag letter a keyword stands for ({@code w}, {@code n}), or 0 for a tag's. */
  public static char flagOf(String keyword) {
    return keyword.equalsIgnoreCase(FORWARDED)
        ? 'w'
        : keyword.equalsIgnoreCase(MDN_SENT) ? 'n' : (char) 0;
  }
}
