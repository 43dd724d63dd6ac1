package org.mailrestore.mbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.mailrestore.mail.Flags;

/**
 * What an mbox message's own headers say of its state: Thunderbird's {@code X-Mozilla-Status} (and
 * {@code -Status2}), the {@code Status:}/{@code X-Status:} of mutt and pine, Google Takeout's
 * {@code X-Gmail-Labels}. With none of them a message counts as read: mbox files are mostly
 * archives.
 *
 * @param flags our flag letters
 * @param expunged Thunderbird deleted it and keeps it only until the folder is compacted
 * @param labels Gmail's labels, in the header's order; empty when there are none
 */
record MessageState(String flags, boolean expunged, List<String> labels) {

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
    return new MessageState(Flags.normalize(flags.toString()), expunged, labels);
  }

  /** The header fields {@link #of} reads, lower case. */
  static final String[] FIELDS = {
    "x-mozilla-status", "x-mozilla-status2", "status", "x-status", "x-gmail-labels"
  };

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
