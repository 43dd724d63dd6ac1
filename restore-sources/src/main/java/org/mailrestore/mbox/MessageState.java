package org.mailrestore.mbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Keywords;
import org.mailrestore.mail.TextRules;

/**
 * What an mbox message's own headers say of its state: Thunderbird's {@code X-Mozilla-Status} (and
 * {@code -Status2}) and tags ({@code X-Mozilla-Keys}), the {@code Status:}/{@code X-Status:} of
 * mutt and pine, the keywords Dovecot keeps in an mbox ({@code X-Keywords}), Google Takeout's
 * {@code X-Gmail-Labels}. With none of them a message counts as read: mbox files are mostly
 * archives.
 *
 * @param flags our flag letters
 * @param expunged Thunderbird deleted it and keeps it only until the folder is compacted
 * @param labels Gmail's labels, in the header's order; empty when there are none
 * @param tags the tags its keywords name (Thunderbird's, Dovecot's); empty when there are none
 */
record MessageState(String flags, boolean expunged, List<String> labels, List<String> tags) {

  /**
   * Thunderbird's five tags as it shows them until a user renames them ({@code $label1} is
   * Important).
   */
  private static final Map<String, String> THUNDERBIRD_LABELS =
      Map.of(
          "$label1", "Important",
          "$label2", "Work",
          "$label3", "Personal",
          "$label4", "To Do",
          "$label5", "Later");

  // Thunderbird's nsMsgMessageFlags
  private static final int MOZ_READ = 0x1;
  private static final int MOZ_REPLIED = 0x2;
  private static final int MOZ_MARKED = 0x4;
  private static final int MOZ_EXPUNGED = 0x8;
  private static final int MOZ_FORWARDED = 0x1000;
  private static final int MOZ_IMAP_DELETED = 0x200000;

  /**
   * @param values the header fields, in the order of {@link #FIELDS}
   */
  static MessageState of(String[] values) {
    String mozilla = values[0];
    String mozilla2 = values[1];
    String status = values[2];
    String xStatus = values[3];
    List<String> labels = values[4] == null ? List.of() : labels(values[4]);
    StringBuilder flags = new StringBuilder();
    List<String> tags = new ArrayList<>();
    for (String keywords : new String[] {values[5], values[6]}) {
      if (keywords != null) {
        keywords(keywords, flags, tags);
      }
    }
    boolean expunged = false;
    boolean known = false;
    if (mozilla != null) {
      int bits = hex(mozilla);
      int bits2 = hex(mozilla2);
      if (bits >= 0) {
        known = true;
        expunged = (bits & MOZ_EXPUNGED) != 0;
        if ((bits & MOZ_READ) == 0) {
          flags.append('u');
        }
        if ((bits & MOZ_REPLIED) != 0) {
          flags.append('r');
        }
        if ((bits & MOZ_MARKED) != 0) {
          flags.append('f');
        }
        if ((bits & MOZ_FORWARDED) != 0) {
          flags.append('w');
        }
        if (bits2 > 0 && (bits2 & MOZ_IMAP_DELETED) != 0) {
          flags.append('x');
        }
      }
    }
    if (!known && (status != null || xStatus != null)) {
      known = true;
      String s = status == null ? "" : status;
      String x = xStatus == null ? "" : xStatus;
      if (s.indexOf('R') < 0) {
        flags.append('u');
      }
      if (x.indexOf('A') >= 0) {
        flags.append('r');
      }
      if (x.indexOf('F') >= 0) {
        flags.append('f');
      }
      if (x.indexOf('T') >= 0) {
        flags.append('d');
      }
      if (x.indexOf('D') >= 0) {
        flags.append('x');
      }
    }
    if (!labels.isEmpty()) {
      for (String label : labels) {
        switch (label.toLowerCase(Locale.ROOT)) {
          case "unread" -> flags.append('u');
          case "starred" -> flags.append('f');
          default -> {
            // folders and tags: see GmailLabels
          }
        }
      }
    }
    return new MessageState(Flags.normalize(flags.toString()), expunged, labels, List.copyOf(tags));
  }

  /** The header fields {@link #of} reads, lower case. */
  static final String[] FIELDS = {
    "x-mozilla-status",
    "x-mozilla-status2",
    "status",
    "x-status",
    "x-gmail-labels",
    "x-mozilla-keys",
    "x-keywords"
  };

  /**
   * A header of keywords separated by white space (Thunderbird pads its own with spaces): {@code
   * $Forwarded} and {@code $MDNSent} are flags, a junk filter's verdict is passed over, every other
   * keyword is a tag (Thunderbird's {@code $label1} to {@code $label5} by the names it shows).
   */
  private static void keywords(String header, StringBuilder flags, List<String> tags) {
    for (String keyword : header.strip().split("[ \\t,]+")) {
      if (keyword.isEmpty() || Keywords.isJunkVerdict(keyword)) {
        continue;
      }
      char flag = Keywords.flagOf(keyword);
      if (flag != 0) {
        flags.append(flag);
        continue;
      }
      String tag =
          TextRules.tagName(
              THUNDERBIRD_LABELS.getOrDefault(keyword.toLowerCase(Locale.ROOT), keyword));
      if (tag != null && tags.stream().noneMatch(tag::equalsIgnoreCase)) {
        tags.add(tag);
      }
    }
  }

  private static int hex(String value) {
    if (value == null) {
      return -1;
    }
    try {
      return (int) Long.parseLong(value.strip(), 16);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Gmail's labels: comma separated, a label with a comma in double quotes. */
  static List<String> labels(String header) {
    List<String> labels = new ArrayList<>();
    StringBuilder label = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < header.length(); i++) {
      char c = header.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        add(labels, label);
      } else {
        label.append(c);
      }
    }
    add(labels, label);
    return labels;
  }

  private static void add(List<String> labels, StringBuilder label) {
    String l = label.toString().strip();
    if (!l.isEmpty()) {
      labels.add(l);
    }
    label.setLength(0);
  }
}
