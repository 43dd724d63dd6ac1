package org.mailrestore.zimbra;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.mailrestore.mail.TextRules;

/**
 * Folder paths ({@code Path} of a {@code .meta}) and entry names of Zimbra archives: read strictly
 * (a segment {@code ..}, an absolute entry name, a NUL are refused with the reason), written with
 * Zimbra's sanitising rules.
 */
final class ArchivePaths {

  /** What Zimbra replaces by {@code _} in a folder of an entry name. */
  private static final Pattern ILLEGAL_FOLDER_CHARS = Pattern.compile("[:*?\"<>|\\x00]");

  /** ... and in a file name. */
  private static final Pattern ILLEGAL_FILE_CHARS = Pattern.compile("[/:*?\"<>|\\x00]");

  /** Zimbra cuts the subject or name in an entry name to this many characters. */
  static final int NAME_LIMIT = 120;

  /** A folder's items spill into {@code Folder!1}, {@code Folder!2}... every this many. */
  static final int SPILL = 500;

  private ArchivePaths() {}

  /** The path cannot be a folder path. */
  static final class BadPathException extends Exception {
    BadPathException(String message) {
      super(message);
    }
  }

  /**
   * The segments of a folder path: {@code /Inbox/x/} gives [Inbox, x]; {@code /} gives [].
   *
   * @throws BadPathException for an empty segment, {@code .} or {@code ..}, a NUL or a name Zimbra
   *     could not have (control characters, over 255 characters)
   */
  static List<String> segments(String path) throws BadPathException {
    if (path == null) {
      throw new BadPathException("it has no Path");
    }
    List<String> segments = new ArrayList<>();
    String p = path;
    if (p.startsWith("/")) {
      p = p.substring(1);
    }
    if (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (p.isEmpty()) {
      return segments;
    }
    for (String s : p.split("/", -1)) {
      if (s.equals("..") || s.equals(".")) {
        throw new BadPathException("its Path has a \"" + s + "\" segment");
      }
      String bad = TextRules.checkName(s);
      if (bad != null) {
        throw new BadPathException("its Path has a folder whose " + bad);
      }
      segments.add(s);
    }
    return segments;
  }

  /** A path from segments, as Zimbra writes it: {@code /Inbox/x}, or {@code /} for none. */
  static String join(List<String> segments) {
    return "/" + String.join("/", segments);
  }

  /** The key two paths that Zimbra takes for the same folder share (names are case-blind). */
  static String key(List<String> segments) {
    return join(segments).toLowerCase(Locale.ROOT);
  }

  /**
   * Why an entry name must not be trusted, or null: Zimbra never writes an absolute name, a {@code
   * ..} segment or a NUL, so an archive holding one was made or changed by something else.
   */
  static String checkEntryName(String name) {
    if (name.isEmpty()) {
      return "an entry has an empty name";
    }
    if (name.startsWith("/")) {
      return "entry name is absolute (starts with /)";
    }
    if (name.indexOf('\0') >= 0) {
      return "entry name contains a NUL character";
    }
    for (String s : name.split("/", -1)) {
      if (s.equals("..")) {
        return "entry name has a \"..\" segment (it would leave the archive's tree)";
      }
    }
    return null;
  }

  /** The folder part of an entry name for a folder path, as Zimbra writes it. */
  static String entryFolder(List<String> segments) {
    return ILLEGAL_FOLDER_CHARS.matcher(String.join("/", segments)).replaceAll("_");
  }

  /**
   * The file part of an entry name, as Zimbra writes it: the id in ten digits, a dash, the subject
   * or name cut to 120 characters, Zimbra's illegal characters replaced, trailing dots dropped.
   *
   * @param prefix false for documents, which keep their own name
   */
  static String entryFile(int id, String typeName, String name, boolean prefix) {
    String n = name;
    if (n != null && !n.isEmpty() && prefix) {
      n = String.format(Locale.ROOT, "%010d-%s", id, n);
    }
    if (n == null || n.isEmpty()) {
      n = typeName + "-" + id;
    } else if (n.length() > NAME_LIMIT + 1) {
      n = n.substring(0, NAME_LIMIT);
    }
    n = ILLEGAL_FILE_CHARS.matcher(n).replaceAll("_").strip();
    while (n.endsWith(".")) {
      n = n.substring(0, n.length() - 1).strip();
    }
    return n.isEmpty() ? typeName + "-" + id : n;
  }
}
