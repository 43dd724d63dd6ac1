package org.mailrestore.imap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.mail.SystemFolder;

/**
 * One user's folders as the server has them: the personal namespace (its prefix, {@code INBOX/} on
 * a Cyrus without altnamespace, and its hierarchy separator), the folders that exist, and which of
 * them hold the special uses of RFC 6154. System folders of the backup map onto the special-use
 * folders (Sent onto {@code \Sent}...) or, where the server has none, onto folders of their name
 * created with the special use.
 */
final class ServerFolders {

  private static final Map<SystemFolder, String> SPECIAL_USE =
      Map.of(
          SystemFolder.SENT, "\\Sent",
          SystemFolder.TRASH, "\\Trash",
          SystemFolder.JUNK, "\\Junk",
          SystemFolder.DRAFTS, "\\Drafts");

  private final String prefix;
  private final String separator;
  private final Set<String> paths = new LinkedHashSet<>();
  private final Map<String, String> specialUse = new HashMap<>();

  private ServerFolders(String prefix, String separator) {
    this.prefix = prefix;
    this.separator = separator;
  }

  /** Reads the namespace and the folders of the session's user. */
  static ServerFolders read(UserSession session) throws IOException {
    String prefix = "";
    String separator = null;
    if (session.has("NAMESPACE")) {
      for (Response r : session.ok(Command.of("NAMESPACE")).untagged()) {
        if (r.is("NAMESPACE")
            && r.data().size() > 1
            && r.data().get(1) instanceof List<?> personal
            && !personal.isEmpty()
            && personal.get(0) instanceof List<?> first
            && first.size() >= 2) {
          prefix = text(first.get(0));
          separator = first.get(1) == null ? null : text(first.get(1));
        }
      }
    }
    if (separator == null) {
      for (Response r : session.ok(Command.of("LIST").string("").string("")).untagged()) {
        if (r.is("LIST") && r.data().size() > 2 && r.data().get(2) != null) {
          separator = text(r.data().get(2));
        }
      }
    }
    ServerFolders folders = new ServerFolders(prefix, separator == null ? "/" : separator);
    folders.list(session);
    return folders;
  }

  private void list(UserSession session) throws IOException {
    boolean extended = session.has("LIST-EXTENDED") && session.has("SPECIAL-USE");
    Command list = Command.of("LIST").string("").string("*");
    if (extended) {
      list.text(" RETURN (SPECIAL-USE)");
    }
    paths.clear();
    specialUse.clear();
    for (Response r : session.ok(list).untagged()) {
      if (!r.is("LIST") || r.data().size() < 4) {
        continue;
      }
      String path = ModifiedUtf7.decode(text(r.data().get(3)));
      paths.add(path);
      if (r.data().get(1) instanceof List<?> attributes) {
        for (Object a : attributes) {
          String attribute = text(a);
          if (SPECIAL_USE.containsValue(attribute)) {
            specialUse.putIfAbsent(attribute.toLowerCase(Locale.ROOT), path);
          }
          if (attribute.equalsIgnoreCase("\\NonExistent")
              || attribute.equalsIgnoreCase("\\NoSelect")) {
            paths.remove(path);
          }
        }
      }
    }
  }

  private static String text(Object token) {
    return token instanceof byte[] b
        ? new String(b, StandardCharsets.UTF_8)
        : String.valueOf(token);
  }

  String separator() {
    return separator;
  }

  Set<String> paths() {
    return paths;
  }

  boolean exists(String path) {
    return path.equalsIgnoreCase("INBOX") ? true : paths.contains(path);
  }

  /** The path of a folder named {@code name} under {@code parent} ("" for the top level). */
  String child(String parent, String name) {
    String safe = name.replace(separator, "_");
    return parent.isEmpty() ? prefix + safe : parent + separator + safe;
  }

  /**
   * The system folders a mail server has as such; the others (Contacts, Calendar, Chats...) are
   * plain folders there, whose names a backup's folders may take.
   */
  static final Set<SystemFolder> KEPT =
      EnumSet.of(
          SystemFolder.ROOT,
          SystemFolder.USER_ROOT,
          SystemFolder.INBOX,
          SystemFolder.SENT,
          SystemFolder.DRAFTS,
          SystemFolder.TRASH,
          SystemFolder.JUNK);

  /**
   * The path of a system folder of the backup, created when the server has none: the user root is
   * "" (the personal namespace's top level).
   */
  String system(UserSession session, SystemFolder folder) throws IOException {
    if (folder == SystemFolder.USER_ROOT || folder == SystemFolder.ROOT) {
      return "";
    }
    if (folder == SystemFolder.INBOX) {
      return "INBOX";
    }
    String use = SPECIAL_USE.get(folder);
    if (use != null && specialUse.containsKey(use.toLowerCase(Locale.ROOT))) {
      return specialUse.get(use.toLowerCase(Locale.ROOT));
    }
    String path = child("", folder.folderName());
    if (!exists(path)) {
      create(session, path, use);
    }
    return path;
  }

  /**
   * Creates a folder (its parents must exist); a folder that exists already is fine. With a special
   * use, asks for it (RFC 6154 CREATE-SPECIAL-USE) and falls back to a plain folder when refused.
   */
  void create(UserSession session, String path, String use) throws IOException {
    if (exists(path)) {
      return;
    }
    ImapSession.Result r = null;
    if (use != null && session.has("CREATE-SPECIAL-USE")) {
      r = session.run(Command.of("CREATE").mailbox(path).text(" (USE (" + use + "))"));
    }
    if (r == null || !r.tagged().isOk()) {
      r = session.run(Command.of("CREATE").mailbox(path));
    }
    if (!r.tagged().isOk() && !r.tagged().codeName().equals("ALREADYEXISTS")) {
      // A folder created by an earlier run whose LIST we have not seen: look again.
      list(session);
      if (!exists(path)) {
        throw new ImapException("creating folder " + path, r.tagged());
      }
    }
    paths.add(path);
    if (use != null) {
      specialUse.putIfAbsent(use.toLowerCase(Locale.ROOT), path);
    }
    session.run(Command.of("SUBSCRIBE").mailbox(path));
  }
}
