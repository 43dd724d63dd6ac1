package org.mailrestore.mail;

/**
 * Item flags: Zimbra's one-letter names in the backup, a bit set in the mailstore.
 *
 * <p>The letters and bit positions are Zimbra's ({@code Flag.FlagInfo}: bit {@code n} is flag
 * {@code -(n+1)}), so a mailstore row reads like Zimbra's {@code mail_item.flags} and a Zimbra
 * archive's flags carry over one to one. Zimbra's hidden flags (copied, indexing deferred, in
 * dumpster, uncached) have no letter and are not kept.
 */
public final class Flags {

  // Index i of LETTERS is bit i; '.' marks a bit with no letter.
  private static final String LETTERS = "sarw.fdxnu!?/.pt+^(*b#ivy~o@g";

  public static final int FROM_ME = 1;
  public static final int ATTACHED = 1 << 1;
  public static final int REPLIED = 1 << 2;
  public static final int FORWARDED = 1 << 3;
  public static final int FLAGGED = 1 << 5;
  public static final int DRAFT = 1 << 6;
  public static final int DELETED = 1 << 7;
  public static final int NOTIFIED = 1 << 8;
  public static final int UNREAD = 1 << 9;

  private Flags() {}

  /** The bit set of a flag string; throws with the offending letter when one is unknown. */
  public static int toBits(String letters) {
    if (letters == null || letters.isEmpty()) {
      return 0;
    }
    int bits = 0;
    for (int i = 0; i < letters.length(); i++) {
      char c = letters.charAt(i);
      int bit = c == '.' ? -1 : LETTERS.indexOf(c);
      if (bit < 0) {
        throw new IllegalArgumentException(
            "unknown flag '" + c + "' in \"" + letters + "\" (known: " + known() + ")");
      }
      bits |= 1 << bit;
    }
    return bits;
  }

  /** The canonical flag string of a bit set: letters in bit order. */
  public static String fromBits(int bits) {
    StringBuilder sb = new StringBuilder();
    for (int bit = 0; bit < LETTERS.length(); bit++) {
      if ((bits & (1 << bit)) != 0 && LETTERS.charAt(bit) != '.') {
        sb.append(LETTERS.charAt(bit));
      }
    }
    return sb.toString();
  }

  /** The canonical form of a flag string (letters in bit order, no repeats). */
  public static String normalize(String letters) {
    return fromBits(toBits(letters));
  }

  private static String known() {
    return LETTERS.replace(".", "");
  }
}
