package org.mailrestore.mail;

/**
 * The limits text values must respect to be stored: lengths that fit the mailstore's columns and
 * characters a mail client can show. One place, so the decoder and the generator agree.
 */
public final class TextRules {

  /** Folder, tag and mountpoint names, as Zimbra limits them. */
  public static final int MAX_NAME_LENGTH = 255;

  public static final int MAX_SENDER_LENGTH = 255;
  public static final int MAX_SUBJECT_LENGTH = 4096;

  /** All attributes of an item together (their JSON in the mailstore), in bytes. */
  public static final int MAX_ATTR_LENGTH = 1 << 20;

  private static final java.util.regex.Pattern ADDRESS =
      java.util.regex.Pattern.compile(
          "[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
              + "(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+");

  private TextRules() {}

  /**
   * True for an account address as accounts are named: a lower-case local part, {@code @}, a domain
   * of at least two labels ({@code alice@example.org}).
   */
  public static boolean isAddress(String s) {
    return s != null && s.length() <= 254 && ADDRESS.matcher(s).matches();
  }

  /** Why {@code name} is not a valid folder or tag name, or null when it is. */
  public static String checkName(String name) {
    if (name == null || name.isEmpty()) {
      return "name is missing or empty";
    }
    if (name.length() > MAX_NAME_LENGTH) {
      return "name is " + name.length() + " characters long (at most " + MAX_NAME_LENGTH + ")";
    }
    if (name.equals(".") || name.equals("..")) {
      return "name \"" + name + "\" is reserved";
    }
    if (name.indexOf('/') >= 0) {
      return "name contains '/': \"" + printable(name) + "\"";
    }
    String bad = checkCharacters(name, false);
    if (bad != null) {
      return "name " + bad;
    }
    if (!name.strip().equals(name)) {
      return "name has leading or trailing white space: \"" + printable(name) + "\"";
    }
    return null;
  }

  /**
   * A tag name for a label or keyword of another system (a Gmail label, an IMAP keyword): {@code /}
   * becomes {@code -} (a tag name cannot hold one), white space at the ends goes, and it is cut to
   * the name limit; null when no valid name is left.
   */
  public static String tagName(String label) {
    String name = label.replace('/', '-').strip();
    if (name.length() > MAX_NAME_LENGTH) {
      name = name.substring(0, MAX_NAME_LENGTH).strip();
    }
    return checkName(name) == null ? name : null;
  }

  /** Why a free-text value (subject, sender, attribute) cannot be stored, or null. */
  public static String checkText(String what, String value, int maxLength) {
    if (value == null) {
      return null;
    }
    if (value.length() > maxLength) {
      return what + " is " + value.length() + " characters long (at most " + maxLength + ")";
    }
    String bad = checkCharacters(value, true);
    return bad == null ? null : what + " " + bad;
  }

  private static String checkCharacters(String s, boolean allowTabsAndBreaks) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0) {
        return "contains a NUL character";
      }
      if (Character.isISOControl(c)
          && !(allowTabsAndBreaks && (c == '\t' || c == '\n' || c == '\r'))) {
        return "contains control character U+" + String.format("%04X", (int) c);
      }
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1));
        if (!paired) {
          return "contains an unpaired UTF-16 surrogate (invalid Unicode)";
        }
        i++;
      }
    }
    return null;
  }

  /** The string with control characters shown as escapes, for error messages. */
  public static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    int limit = Math.min(s.length(), 120);
    for (int i = 0; i < limit; i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c) || Character.isSurrogate(c)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (s.length() > limit) {
      sb.append("...");
    }
    return sb.toString();
  }
}
