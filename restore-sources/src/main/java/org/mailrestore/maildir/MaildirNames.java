package org.mailrestore.maildir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.mailrestore.blob.PathFence;
import org.mailrestore.mail.Keywords;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mail.TextRules;

/** The naming rules of Maildir trees: flags in file names, folder names, paths kept for export. */
public final class MaildirNames {

  /** Item attribute: a message's file, relative to its user's directory (see {@link #encode}). */
  public static final String FILE_ATTR = "maildir.file";

  /**
   * Item attribute: the keywords a message's file name named, one {@code <letter><keyword>} per
   * line ({@link #encode}d), so that an export writes them under the same letters.
   */
  public static final String KEYWORDS_ATTR = "maildir.keywords";

  /** Item attribute: a folder's directory, relative to its user's directory. */
  public static final String DIR_ATTR = "maildir.dir";

  /** Account attribute: the layout the account came from ({@code maildir} or {@code plain}). */
  public static final String LAYOUT_ATTR = "maildir.layout";

  /**
   * Account attribute prefix: {@code maildir.folder.<system folder id>} is the directory that
   * became that system folder (an Enron {@code inbox}, a Maildir++ {@code .Sent}).
   */
  public static final String SYSTEM_DIR_ATTR_PREFIX = "maildir.folder.";

  /** Dovecot's table of a folder's keywords: lines {@code <index> <keyword>}, index 0 letter a. */
  static final String DOVECOT_KEYWORDS = "dovecot-keywords";

  /** The largest keyword table read; Dovecot's holds at most 26 keywords of a few bytes each. */
  private static final int MAX_KEYWORDS_BYTES = 64 * 1024;

  /** Top-level folder names (lower case) restored into the system folder of the same role. */
  private static final Map<String, SystemFolder> SYSTEM_NAMES =
      Map.of(
          "inbox", SystemFolder.INBOX,
          "sent", SystemFolder.SENT,
          "drafts", SystemFolder.DRAFTS,
          "trash", SystemFolder.TRASH,
          "junk", SystemFolder.JUNK);

  private static final Pattern DOMAIN =
      Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+");

  private MaildirNames() {}

  /** Whether {@code name} is a domain name the accounts of a tree can be created in. */
  public static boolean isDomainName(String name) {
    return name != null && DOMAIN.matcher(name.toLowerCase(Locale.ROOT)).matches();
  }

  /** Whether a user directory's name (lower case) can be the local part of an address. */
  static boolean isLocalPart(String name) {
    return org.mailrestore.backup.BackupLayout.isSafeSegment(name) && name.indexOf('@') < 0;
  }

  /** The system folder a top-level folder of this name stands for, or null. */
  static SystemFolder systemFolder(String topLevelName) {
    return SYSTEM_NAMES.get(topLevelName.toLowerCase(Locale.ROOT));
  }

  /**
   * Zimbra flag letters from a Maildir file name's info ({@code :2,FRS}, or {@code ;2,} or {@code
   * !2,} as some servers and OfflineIMAP write it on file systems without colons). Unknown and
   * lower-case (keyword, see {@link #state}) letters are left out. A message without {@code S} is
   * unread, in {@code cur/} or in {@code new/}: a file just delivered has no info, but Dovecot
   * names the flags it is given there too ({@code doveadm save}, Sieve's {@code addflag}), and
   * reads them so.
   */
  static String flags(String fileName) {
    int info = infoStart(fileName);
    String letters = info < 0 ? "" : fileName.substring(info);
    StringBuilder zimbra = new StringBuilder();
    if (letters.indexOf('S') < 0) {
      zimbra.append('u');
    }
    if (letters.indexOf('R') >= 0) {
      zimbra.append('r');
    }
    if (letters.indexOf('P') >= 0) {
      zimbra.append('w');
    }
    if (letters.indexOf('F') >= 0) {
      zimbra.append('f');
    }
    if (letters.indexOf('D') >= 0) {
      zimbra.append('d');
    }
    if (letters.indexOf('T') >= 0) {
      zimbra.append('x');
    }
    return zimbra.toString();
  }

  /**
   * A message's state from its file name: Zimbra flag letters, tag names, and the keywords its
   * letters named ({@link #KEYWORDS_ATTR}'s value, or null when none).
   */
  record State(String flags, List<String> tags, String keywords) {
    static final State NONE = new State("", List.of(), null);

    /** The attributes a message of this state keeps for export, its file at {@code rel}. */
    Map<String, String> attrs(String rel) {
      return keywords == null
          ? Map.of(FILE_ATTR, encode(rel))
          : Map.of(FILE_ATTR, encode(rel), KEYWORDS_ATTR, keywords);
    }
  }

  /**
   * The flags of a file name's info ({@link #flags}) and its keywords: each lower-case letter names
   * the keyword of that index in the folder's table ({@code a} the first). A letter the table does
   * not name is left out. See {@link #stateWith} for what keywords become.
   */
  static State state(String fileName, List<String> keywordTable) {
    int info = infoStart(fileName);
    if (info < 0 || keywordTable.isEmpty()) {
      return new State(flags(fileName), List.of(), null);
    }
    List<Keyword> keywords = new ArrayList<>();
    for (int i = info; i < fileName.length(); i++) {
      int index = fileName.charAt(i) - 'a';
      if (index >= 0 && index < 26 && index < keywordTable.size()) {
        String keyword = keywordTable.get(index);
        if (keyword != null) {
          keywords.add(new Keyword(fileName.charAt(i), keyword));
        }
      }
    }
    return stateWith(fileName, keywords);
  }

  /**
   * A keyword of a message and the letter it is kept under for export ({@code 0}: none; Courier's
   * keywords past the 26th).
   */
  record Keyword(char letter, String name) {}

  /**
   * The flags of a file name's info and the keywords the message carries. {@code $Forwarded} and
   * {@code $MDNSent} are Zimbra's forwarded and notified flags, as they are over IMAP; a junk
   * filter's verdict ({@code $NotJunk}) is no tag, but kept for export with the others ({@link
   * #KEYWORDS_ATTR}); every other keyword is a tag of its name.
   */
  static State stateWith(String fileName, List<Keyword> keywords) {
    String flags = flags(fileName);
    if (keywords.isEmpty()) {
      return new State(flags, List.of(), null);
    }
    StringBuilder zimbra = new StringBuilder(flags);
    List<String> tags = new ArrayList<>();
    StringBuilder named = new StringBuilder();
    for (Keyword keyword : keywords) {
      if (keyword.letter() != 0) {
        named.append(named.isEmpty() ? "" : "\n").append(keyword.letter()).append(keyword.name());
      }
      char flag = Keywords.flagOf(keyword.name());
      if (flag != 0) {
        if (zimbra.indexOf(String.valueOf(flag)) < 0) {
          zimbra.append(flag);
        }
        continue;
      }
      String tag =
          Keywords.isJunkVerdict(keyword.name()) ? null : TextRules.tagName(keyword.name());
      if (tag != null && !tags.contains(tag)) {
        tags.add(tag);
      }
    }
    return new State(
        zimbra.toString(), List.copyOf(tags), named.isEmpty() ? null : encode(named.toString()));
  }

  /** The letters and keywords of a {@link #KEYWORDS_ATTR} value (empty for null). */
  static Map<Character, String> namedKeywords(String value) {
    Map<Character, String> named = new HashMap<>();
    if (value != null) {
      for (String line : decode(value).split("\n")) {
        if (line.length() > 1 && line.charAt(0) >= 'a' && line.charAt(0) <= 'z') {
          named.put(line.charAt(0), line.substring(1));
        }
      }
    }
    return named;
  }

  /** The lower-case letters of a file name's info: its keywords. */
  static String keywordLetters(String fileName) {
    int info = infoStart(fileName);
    StringBuilder letters = new StringBuilder();
    if (info >= 0) {
      for (int i = info; i < fileName.length(); i++) {
        char c = fileName.charAt(i);
        if (c >= 'a' && c <= 'z') {
          letters.append(c);
        }
      }
    }
    return letters.toString();
  }

  /**
   * A file name with other keyword letters: the info's upper-case flags stay where they are, the
   * letters follow them (an info is added when there is none and letters are given).
   */
  static String withKeywordLetters(String fileName, String letters) {
    int info = infoStart(fileName);
    if (info < 0) {
      return letters.isEmpty() ? fileName : fileName + ":2," + letters;
    }
    StringBuilder name = new StringBuilder(fileName.substring(0, info));
    for (int i = info; i < fileName.length(); i++) {
      char c = fileName.charAt(i);
      if (c < 'a' || c > 'z') {
        name.append(c);
      }
    }
    return name.append(letters).toString();
  }

  /**
   * A folder's keyword table, index to keyword (null where a line is missing). Lines that are not
   * {@code <0-25> <keyword>} are passed over, as Dovecot does.
   */
  static List<String> keywordTable(PathFence fence, Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = fence.open(file)) {
      bytes = in.readNBytes(MAX_KEYWORDS_BYTES);
    }
    String[] table = new String[26];
    int size = 0;
    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\r?\n")) {
      int space = line.indexOf(' ');
      if (space < 1 || space > 2) {
        continue;
      }
      int index;
      try {
        index = Integer.parseInt(line.substring(0, space));
      } catch (NumberFormatException e) {
        continue;
      }
      String keyword = line.substring(space + 1).strip();
      if (index < 0 || index >= table.length || keyword.isEmpty()) {
        continue;
      }
      table[index] = keyword;
      size = Math.max(size, index + 1);
    }
    return Arrays.asList(Arrays.copyOf(table, size));
  }

  /**
   * A file name without its info ({@code 1700000000.M1P2.host:2,S}: {@code 1700000000.M1P2.host}).
   */
  static String baseName(String fileName) {
    int info = infoStart(fileName);
    return info < 0 ? fileName : fileName.substring(0, info - 3);
  }

  /**
   * Where the letters of a file name's info start ({@code :2,}, {@code ;2,}, {@code !2,}), or -1.
   */
  private static int infoStart(String fileName) {
    int info =
        Math.max(
            fileName.lastIndexOf(":2,"),
            Math.max(fileName.lastIndexOf(";2,"), fileName.lastIndexOf("!2,")));
    return info < 0 ? -1 : info + 3;
  }

  /**
   * A valid Zimbra folder name for a directory name: control characters become {@code _}, white
   * space at the ends goes, and it is cut to the name limit. The directory's own name is kept in
   * {@link #DIR_ATTR} for export.
   */
  static String folderName(String directoryName) {
    StringBuilder sb = new StringBuilder(directoryName.length());
    for (int i = 0; i < directoryName.length(); i++) {
      char c = directoryName.charAt(i);
      boolean unpaired =
          Character.isSurrogate(c)
              && !(Character.isHighSurrogate(c)
                  && i + 1 < directoryName.length()
                  && Character.isLowSurrogate(directoryName.charAt(i + 1)));
      if (Character.isISOControl(c) || c == '/' || unpaired) {
        sb.append('_');
      } else {
        sb.append(c);
        if (Character.isHighSurrogate(c) && !unpaired) {
          sb.append(directoryName.charAt(++i));
        }
      }
    }
    String name = sb.toString().strip();
    if (name.length() > TextRules.MAX_NAME_LENGTH) {
      int end = TextRules.MAX_NAME_LENGTH;
      if (Character.isHighSurrogate(name.charAt(end - 1))) {
        end--;
      }
      name = name.substring(0, end).strip();
    }
    if (name.isEmpty() || name.equals(".") || name.equals("..")) {
      name = "_" + name;
    }
    return name;
  }

  /**
   * A relative path as an attribute value: {@code %} and control characters are written {@code %XX}
   * (attribute values may not hold control characters); {@link #decode} reverses it.
   */
  public static String encode(String path) {
    StringBuilder sb = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '%' || Character.isISOControl(c)) {
        sb.append('%').append(String.format(Locale.ROOT, "%02X", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  public static String decode(String value) {
    StringBuilder sb = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      int code = c == '%' && i + 2 < value.length() ? hex(value, i + 1) : -1;
      if (code >= 0) {
        sb.append((char) code);
        i += 2;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static int hex(String s, int at) {
    int high = Character.digit(s.charAt(at), 16);
    int low = Character.digit(s.charAt(at + 1), 16);
    return high < 0 || low < 0 ? -1 : high * 16 + low;
  }
}
