package org.mailrestore.ldap;

import java.net.IDN;
import java.util.Locale;
import java.util.regex.Pattern;
import org.mailrestore.destination.ProvisioningRefusedException;

/**
 * An address as it names directory entries ({@code uid=local,ou=people,dc=example,dc=org}): checked
 * before anything is written, so an address no entry can be named by fails its account with the
 * reason instead of leaving half an entry.
 */
record Address(String local, String domain, String original) {

  Address(String local, String domain) {
    this(local, domain, local + "@" + domain);
  }

  /** The same address, as the backup spelled it (for the values written). */
  Address keeping(String spelled) {
    return new Address(local, domain, spelled);
  }

  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

  /**
   * @throws ProvisioningRefusedException saying why the address cannot name an entry
   */
  static Address parse(String address) throws ProvisioningRefusedException {
    int at = address.lastIndexOf('@');
    if (at <= 0 || at == address.length() - 1) {
      throw refused(address, "it is not local@domain");
    }
    String local = address.substring(0, at);
    String domain = address.substring(at + 1);
    if (local.length() > 64) {
      throw refused(address, "its local part is longer than 64 characters (RFC 5321)");
    }
    for (int i = 0; i < local.length(); i++) {
      char c = local.charAt(i);
      if (c < 0x21 || c == 0x7f || Character.isWhitespace(c) || Character.isSurrogate(c)) {
        throw refused(address, "its local part holds a space or a control character");
      }
    }
    String ascii;
    try {
      ascii = IDN.toASCII(domain, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw refused(address, "its domain is not a host name (" + e.getMessage() + ")");
    }
    if (ascii.length() > 253) {
      throw refused(address, "its domain is longer than 253 characters");
    }
    for (String label : ascii.split("\\.", -1)) {
      if (!LABEL.matcher(label).matches()) {
        throw refused(
            address, "its domain has an empty or invalid label '" + label + "' (RFC 1035)");
      }
    }
    return new Address(local, ascii, address);
  }

  private static ProvisioningRefusedException refused(String address, String why) {
    return new ProvisioningRefusedException(
        "the address " + printable(address) + " cannot name a directory entry: " + why);
  }

  /** The address with control characters shown as Java escapes, for a report. */
  static String printable(String value) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return local + "@" + domain;
  }
}
