package org.mailrestore.imap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Keywords;

/**
 * Zimbra's flag letters as IMAP flags, both ways (docs/imap-target.md): not unread is {@code
 * \Seen}, f {@code \Flagged}, r {@code \Answered}, d {@code \Draft}, x {@code \Deleted}, w {@code
 * $Forwarded}, n {@code $MDNSent}. The others (sent by me, has attachment...) are what Zimbra
 * derives from the message; IMAP has no place for them.
 */
final class MessageFlags {

  /** The flags an IMAP server keeps: what verify compares. */
  static final int KEPT =
      Flags.UNREAD
          | Flags.FLAGGED
          | Flags.REPLIED
          | Flags.DRAFT
          | Flags.DELETED
          | Flags.FORWARDED
          | Flags.NOTIFIED;

  private MessageFlags() {}

  /** The IMAP flags of a Zimbra flag string, system flags first. */
  static List<String> toImap(String letters) {
    int bits = Flags.toBits(letters);
    List<String> flags = new ArrayList<>();
    if ((bits & Flags.UNREAD) == 0) {
      flags.add("\\Seen");
    }
    if ((bits & Flags.FLAGGED) != 0) {
      flags.add("\\Flagged");
    }
    if ((bits & Flags.REPLIED) != 0) {
      flags.add("\\Answered");
    }
    if ((bits & Flags.DRAFT) != 0) {
      flags.add("\\Draft");
    }
    if ((bits & Flags.DELETED) != 0) {
      flags.add("\\Deleted");
    }
    if ((bits & Flags.FORWARDED) != 0) {
      flags.add(Keywords.FORWARDED);
    }
    if ((bits & Flags.NOTIFIED) != 0) {
      flags.add(Keywords.MDN_SENT);
    }
    return flags;
  }

  /** The Zimbra flag string of the IMAP flags a server returned (keywords aside). */
  static String fromImap(Collection<String> imapFlags) {
    int bits = Flags.UNREAD;
    for (String f : imapFlags) {
      switch (f.toLowerCase(Locale.ROOT)) {
        case "\\seen" -> bits &= ~Flags.UNREAD;
        case "\\flagged" -> bits |= Flags.FLAGGED;
        case "\\answered" -> bits |= Flags.REPLIED;
        case "\\draft" -> bits |= Flags.DRAFT;
        case "\\deleted" -> bits |= Flags.DELETED;
        case "$forwarded" -> bits |= Flags.FORWARDED;
        case "$mdnsent" -> bits |= Flags.NOTIFIED;
        default -> {}
      }
    }
    return Flags.fromBits(bits);
  }

  /** Whether a flag the server returned is one of those above (not a keyword of a tag). */
  static boolean isMapped(String imapFlag) {
    return imapFlag.startsWith("\\") || Keywords.isFlag(imapFlag);
  }
}
