package org.mailrestore.mbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.mailrestore.mail.TextRules;

/**
 * Where a message of a Google Takeout mbox goes, from its {@code X-Gmail-Labels}: Gmail's system
 * labels are our system folders (Trash, then Spam as Junk, Drafts, Sent, Inbox, in that order of
 * precedence); with {@code labels=folders} a message that is in none of them goes to the folder of
 * its first own label ({@code a/b} nested); every other label becomes a tag ({@code /} in a tag
 * name becomes {@code -}). Starred, Unread and Opened are flags (see {@link MessageState});
 * Archived says nothing more than the absence of Inbox.
 */
final class GmailLabels {

  /** Where a message goes. */
  enum Mode {
    TAGS,
    FOLDERS;

    static Mode parse(String text) {
      return switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "tags" -> TAGS;
        case "folders" -> FOLDERS;
        default ->
            throw new IllegalArgumentException(
                "unknown labels mode '" + text + "' (use tags or folders)");
      };
    }
  }

  /**
   * @param folder the folder's path segments, or null for the mbox file's own folder
   */
  record Placement(List<String> folder, List<String> tags) {}

  private static final List<String[]> SYSTEM =
      List.of(
          new String[] {"trash", "Trash"},
          new String[] {"spam", "Junk"},
          new String[] {"draft", "Drafts"},
          new String[] {"drafts", "Drafts"},
          new String[] {"sent", "Sent"},
          new String[] {"sent mail", "Sent"},
          new String[] {"inbox", "Inbox"});

  private static final List<String> FLAG_LABELS =
      List.of("starred", "unread", "opened", "archived");

  private GmailLabels() {}

  static Placement place(List<String> labels, Mode mode) {
    if (labels.isEmpty()) {
      return new Placement(null, List.of());
    }
    List<String> folder = null;
    for (String[] system : SYSTEM) {
      if (folder == null && has(labels, system[0])) {
        folder = List.of(system[1]);
      }
    }
    List<String> tags = new ArrayList<>();
    String folderLabel = null;
    for (String label : labels) {
      String lower = label.toLowerCase(Locale.ROOT);
      if (FLAG_LABELS.contains(lower) || isSystem(lower)) {
        continue;
      }
      if (lower.equals("chat") && folder == null) {
        folder = List.of("Chats");
        continue;
      }
      if (folder == null && mode == Mode.FOLDERS && folderLabel == null) {
        List<String> segments = segments(label);
        if (segments != null) {
          folder = segments;
          folderLabel = label;
          continue;
        }
      }
      String tag = TextRules.tagName(label);
      if (tag != null && !tags.contains(tag)) {
        tags.add(tag);
      }
    }
    return new Placement(folder, tags);
  }

  /**
   * The folders a label makes in {@code folders} mode: its segments, or null if it cannot be one.
   */
  static List<String> segments(String label) {
    List<String> segments = new ArrayList<>();
    for (String s : label.split("/")) {
      String name = s.strip();
      if (name.isEmpty()) {
        continue;
      }
      if (TextRules.checkName(name) != null) {
        return null;
      }
      segments.add(name);
    }
    return segments.isEmpty() ? null : segments;
  }

  private static boolean isSystem(String lower) {
    for (String[] system : SYSTEM) {
      if (system[0].equals(lower)) {
        return true;
      }
    }
    return false;
  }

  private static boolean has(List<String> labels, String lower) {
    for (String l : labels) {
      if (l.toLowerCase(Locale.ROOT).equals(lower)) {
        return true;
      }
    }
    return false;
  }
}
