package org.mailrestore.imap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.mail.ModifiedUtf7;
import org.mailrestore.mail.SystemFolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One user's folders as the server has them: the personal namespace (its prefix, {@code INBOX/} on
 * a Cyrus without altnamespace, and its hierarchy separator), the folders that exist, and which of
 * them hold the special uses of RFC 6154. System folders of the backup map onto the special-use
 * folders (Sent onto {@code \Sent}...) or, where the server has none, onto folders of their name
 * created with the special use.
 */
final class ServerFolders {

  private static final Logger LOG = LoggerFactory.getLogger(ServerFolders.class);

  /** Folders sharing an id are logged as warnings up to this many per server, then at debug. */
  private static final int WARNED_CLASHES = 20;

  private static final Map<SystemFolder, String> SPECIAL_USE =
      Map.of(
          SystemFolder.SENT, "\\Sent",
          SystemFolder.TRASH, "\\Trash",
          SystemFolder.JUNK, "\\Junk",
          SystemFolder.DRAFTS, "\\Drafts");

  private final String prefix;
  private final String separator;
  private final Set<String> paths = new LinkedHashSet<>();

  /** A special use (lower case) to the folders listed with it, in the server's order. */
  private final Map<String, List<String>> specialUse = new HashMap<>();

  /** Folder path to its mailbox id (RFC 8474), where the server gives ids. */
  private final Map<String, String> ids = new HashMap<>();

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
    boolean withIds = extended && session.has("LIST-STATUS") && session.has("OBJECTID");
    Command list = Command.of("LIST").string("").string("*");
    if (withIds) {
      list.text(" RETURN (SPECIAL-USE STATUS (MAILBOXID))");
    } else if (extended) {
      list.text(" RETURN (SPECIAL-USE)");
    }
    paths.clear();
    specialUse.clear();
    for (Response r : session.ok(list).untagged()) {
      if (r.is("STATUS") && r.data().size() > 2 && r.data().get(2) instanceof List<?> items) {
        for (int i = 0; i + 1 < items.size(); i += 2) {
          if ("MAILBOXID".equalsIgnoreCase(text(items.get(i)))
              && items.get(i + 1) instanceof List<?> id
              && !id.isEmpty()) {
            noteId(session, ModifiedUtf7.decode(text(r.data().get(1))), text(id.get(0)));
          }
        }
      }
      if (!r.is("LIST") || r.data().size() < 4) {
        continue;
      }
      String path = ModifiedUtf7.decode(text(r.data().get(3)));
      paths.add(path);
      if (r.data().get(1) instanceof List<?> attributes) {
        for (Object a : attributes) {
          String attribute = text(a);
          if (SPECIAL_USE.containsValue(attribute)) {
            specialUse
                .computeIfAbsent(attribute.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                .add(path);
          }
          if (attribute.equalsIgnoreCase("\\NonExistent")
              || attribute.equalsIgnoreCase("\\NoSelect")) {
            paths.remove(path);
          }
        }
      }
    }
  }

  /** Keeps a folder's mailbox id, and says so when another folder the restore saw has it too. */
  private void noteId(UserSession session, String path, String id) {
    if (id == null) {
      return;
    }
    ids.put(path, id);
    String other = session.mailboxIds().note(id, session.user() + ": " + path);
    if (other == null) {
      return;
    }
    int clashes = session.mailboxIds().clashes();
    if (clashes <= WARNED_CLASHES) {
      LOG.warn(
          "{}: the server gave folder {} the mailbox id {} that {} has too (a server fault: seen"
              + " with Cyrus 3.6, whose ids repeat across connections); settings the server keeps"
              + " by that id, such as a special use, may show on the wrong folder, so the restore"
              + " does not go by them. Check the server (Cyrus: ctl_mboxlist -d, reconstruct -I)"
              + " and run verify.{}",
          session.user(),
          path,
          id,
          other,
          clashes == WARNED_CLASHES
              ? " Further folders sharing an id are logged at debug level."
              : "");
    } else {
      LOG.debug("{}: folder {} shares the mailbox id {} with {}", session.user(), path, id, other);
    }
  }

  private static String text(Object token) {
    return token instanceof byte[] b
        ? new String(b, StandardCharsets.UTF_8)
        : String.valueOf(token);
  }

  /** The mailbox id the server gave a folder, or null. */
  String mailboxId(String path) {
    return ids.get(path);
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
   * A folder's name without the characters IMAP servers refuse in names: the list wildcards {@code
   * *} and {@code %}, {@code "} and {@code \} (Cyrus takes none of them) and control characters,
   * each replaced by {@code _}.
   */
  static String plainName(String name) {
    StringBuilder plain = new StringBuilder(name.length());
    name.codePoints()
        .map(c ->
            c == '*' || c == '%' || c == '"' || c == '\\' || Character.isISOControl(c) ? '_' : c)
        .forEach(plain::appendCodePoint);
    return plain.toString();
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
   * "" (the personal namespace's top level). A special use is not believed on a folder in {@code
   * taken} (one the restore already holds something else in: it made it without that use) nor on
   * one whose mailbox id another folder has: both are how a server that repeats ids shows another
   * user's Sent on a folder of this user.
   */
  String system(UserSession session, SystemFolder folder, Set<String> taken) throws IOException {
    if (folder == SystemFolder.USER_ROOT || folder == SystemFolder.ROOT) {
      return "";
    }
    if (folder == SystemFolder.INBOX) {
      return "INBOX";
    }
    String use = SPECIAL_USE.get(folder);
    String found = use == null ? null : specialUse(session, use, taken);
    if (found != null) {
      return found;
    }
    String path = child("", folder.folderName());
    if (!exists(path)) {
      create(session, path, use);
    }
    return path;
  }

  /** The first folder listed with a special use that can be believed, or null. */
  private String specialUse(UserSession session, String use, Set<String> taken) {
    for (String path : specialUse.getOrDefault(use.toLowerCase(Locale.ROOT), List.of())) {
      if (taken.contains(path)) {
        LOG.warn(
            "{}: the server shows folder {} as {}, but the restore made that folder for something"
                + " else without that use; not taking it as the {} folder (a server that repeats"
                + " mailbox ids, as Cyrus 3.6 was seen to, shows another folder's use this way)",
            session.user(),
            path,
            use,
            use);
      } else if (!session.mailboxIds().isShared(ids.get(path))) {
        return path;
      }
    }
    return null;
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
    if (r.tagged().isOk() && r.tagged().codeName().equals("MAILBOXID")) {
      noteId(session, path, MailboxIds.parse(r.tagged().codeArguments()));
    }
    if (use != null) {
      specialUse.computeIfAbsent(use.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(path);
    }
    session.run(Command.of("SUBSCRIBE").mailbox(path));
  }
}
