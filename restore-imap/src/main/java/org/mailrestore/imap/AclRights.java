package org.mailrestore.imap;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Zimbra's rights letters as IMAP ACL rights (RFC 4314), both ways (docs/imap-target.md): r(ead) is
 * {@code lrs} (see the folder, read, keep seen), w(rite) {@code w} (flags), i(nsert) {@code ik}
 * (append, create subfolders), d(elete) {@code tex} (delete messages, expunge, delete the folder),
 * a(dmin) {@code a}; x (accept invitations) has no IMAP right.
 */
public final class AclRights {

  private AclRights() {}

  public static String toImap(String zimbra) {
    Set<Character> rights = new LinkedHashSet<>();
    for (char c : zimbra.toCharArray()) {
      String add =
          switch (c) {
            case 'r' -> "lrs";
            case 'w' -> "w";
            case 'i' -> "ik";
            case 'd' -> "tex";
            case 'a' -> "a";
            default -> "";
          };
      add.chars().forEach(r -> rights.add((char) r));
    }
    StringBuilder sb = new StringBuilder();
    rights.forEach(sb::append);
    return sb.toString();
  }

  /** The Zimbra letters an ACL entry grants, in Zimbra's order. */
  public static String fromImap(String imap) {
    StringBuilder sb = new StringBuilder();
    if (imap.indexOf('r') >= 0) {
      sb.append('r');
    }
    if (imap.indexOf('w') >= 0) {
      sb.append('w');
    }
    if (imap.indexOf('i') >= 0) {
      sb.append('i');
    }
    if (imap.indexOf('t') >= 0 || imap.indexOf('d') >= 0) {
      sb.append('d');
    }
    if (imap.indexOf('a') >= 0) {
      sb.append('a');
    }
    return sb.toString();
  }
}
