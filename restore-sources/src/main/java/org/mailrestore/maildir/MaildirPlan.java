package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.mailrestore.blob.PathFence;
import org.mailrestore.files.FileNames;
import org.mailrestore.mail.ModifiedUtf7;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.SourceProblem;

/**
 * The folders of one user's directory and where their messages are, planned from the directories
 * alone (cheaply, when the account is first looked at): Maildir++ ({@code .A.B}), Dovecot's {@code
 * LAYOUT=fs} and plain trees of folders, each folder's keyword table with them. Folder ids follow
 * the sorted order of the tree, so the same tree always gives the same ids.
 */
final class MaildirPlan {

  /**
   * A folder to create, or a directory that became a system folder ({@code created} false).
   *
   * @param relDir the directory relative to the user's, or null for a folder only implied by a
   *     Maildir++ name ({@code .A.B} without {@code .A})
   */
  record Folder(int id, int parentId, String name, String relDir, boolean created, long mtime) {}

  /**
   * Where messages are: a directory, the folder its files go to, and the keywords its file names'
   * letters stand for ({@code dovecot-keywords}; empty without one), or Courier's keywords of its
   * messages (null without them).
   */
  record MessageDir(
      Path dir, String relDir, int folderId, List<String> keywords, CourierKeywords courier) {}

  /** A Maildir's own directories: deliveries read, new, and in progress. */
  private static final Set<String> MAILDIR_PARTS = Set.of("cur", "new", "tmp");

  private final Path userDir;
  private final PathFence fence;
  private final Consumer<SourceProblem> problems;
  private final List<Folder> folders = new ArrayList<>();
  private final List<MessageDir> messageDirs = new ArrayList<>();
  private final Map<Integer, String> systemDirs = new LinkedHashMap<>();
  private int nextId = SystemFolder.FIRST_USER_ID;

  /** Plans {@code userDir} read as {@code layout} (resolved already); problems are told as met. */
  MaildirPlan(Path userDir, MaildirLayout layout, PathFence fence, Consumer<SourceProblem> problems)
      throws IOException {
    this.userDir = userDir;
    this.fence = fence;
    this.problems = problems;
    if (layout == MaildirLayout.MAILDIR) {
      planMaildir();
    } else {
      planPlain();
    }
  }

  /** The folders to create, parents first. */
  List<Folder> folders() {
    return folders;
  }

  /** The directories of messages, in the order their messages get their ids. */
  List<MessageDir> messageDirs() {
    return messageDirs;
  }

  /** System folder id to the directory that became it. */
  Map<Integer, String> systemDirs() {
    return systemDirs;
  }

  /** The id of the account's first message: the one after its folders'. */
  int firstMessageId() {
    return nextId;
  }

  private void problem(SourceProblem p) {
    problems.accept(p);
  }

  private void planPlain() throws IOException {
    messageDirs.add(new MessageDir(userDir, "", SystemFolder.INBOX.id(), List.of(), null));
    record Pending(Path dir, String rel, int parentId, boolean top) {}
    Deque<Pending> stack = new ArrayDeque<>();
    List<Path> top = subdirectories(userDir);
    for (int i = top.size() - 1; i >= 0; i--) {
      Path d = top.get(i);
      stack.push(new Pending(d, d.getFileName().toString(), SystemFolder.USER_ROOT.id(), true));
    }
    while (!stack.isEmpty()) {
      Pending p = stack.pop();
      String name = FileNames.of(p.dir());
      SystemFolder system = p.top() ? MaildirNames.systemFolder(name) : null;
      int id;
      if (system != null && !systemDirs.containsKey(system.id())) {
        id = system.id();
        systemDirs.put(id, p.rel());
      } else {
        id = nextId++;
        folders.add(
            new Folder(
                id,
                p.parentId(),
                MaildirNames.folderName(name),
                p.rel(),
                true,
                mtime(fence, p.dir())));
      }
      messageDirs.add(new MessageDir(p.dir(), p.rel(), id, List.of(), null));
      List<Path> children = subdirectories(p.dir());
      for (int i = children.size() - 1; i >= 0; i--) {
        Path c = children.get(i);
        stack.push(new Pending(c, p.rel() + "/" + c.getFileName(), id, false));
      }
    }
  }

  private void planMaildir() throws IOException {
    addMaildirMessages(userDir, "", SystemFolder.INBOX.id());
    Map<String, Integer> byPath = new HashMap<>(); // "A.B" (segments joined) -> folder id
    for (Path dir : subdirectories(userDir)) {
      String dirName = FileNames.of(dir);
      if (!dirName.startsWith(".") || dirName.length() < 2) {
        if (!MAILDIR_PARTS.contains(dirName)) {
          planFsFolder(dir, dirName, SystemFolder.USER_ROOT.id(), true);
        }
        continue;
      }
      String[] segments = dirName.substring(1).split("\\.", -1);
      // Dovecot and Courier write each name in modified UTF-7 (.Entw&APw-rfe is Entwürfe).
      String[] names = new String[segments.length];
      for (int s = 0; s < segments.length; s++) {
        names[s] = ModifiedUtf7.decodeIfEncoded(segments[s]);
      }
      int parent = SystemFolder.USER_ROOT.id();
      StringBuilder path = new StringBuilder();
      for (int s = 0; s < segments.length; s++) {
        boolean last = s == segments.length - 1;
        path.append(s == 0 ? "" : ".").append(segments[s]);
        Integer known = byPath.get(path.toString());
        if (known != null) {
          parent = known;
          continue;
        }
        SystemFolder system = s == 0 ? MaildirNames.systemFolder(names[0]) : null;
        int id;
        if (system != null && !systemDirs.containsKey(system.id())) {
          id = system.id();
          systemDirs.put(id, last ? dirName : null);
        } else {
          id = nextId++;
          folders.add(
              new Folder(
                  id,
                  parent,
                  MaildirNames.folderName(names[s]),
                  last ? dirName : null,
                  true,
                  last ? mtime(fence, dir) : 0));
        }
        byPath.put(path.toString(), id);
        parent = id;
      }
      addMaildirMessages(dir, dirName, parent);
    }
  }

  /**
   * Dovecot's {@code LAYOUT=fs}: a folder is a directory of its own name ({@code Archive/2023})
   * holding a Maildir. A directory with no Maildir at any depth (Courier's {@code
   * courierimapkeywords}, anything else) is not a folder.
   */
  private void planFsFolder(Path dir, String rel, int parentId, boolean top) throws IOException {
    if (!holdsMaildir(dir, rel)) {
      return;
    }
    String name = ModifiedUtf7.decodeIfEncoded(FileNames.of(dir));
    SystemFolder system = top ? MaildirNames.systemFolder(name) : null;
    int id;
    if (system != null && !systemDirs.containsKey(system.id())) {
      id = system.id();
      systemDirs.put(id, rel);
    } else {
      id = nextId++;
      folders.add(
          new Folder(id, parentId, MaildirNames.folderName(name), rel, true, mtime(fence, dir)));
    }
    addMaildirMessages(dir, rel, id);
    for (Path child : subdirectories(dir)) {
      String childName = FileNames.of(child);
      if (!MAILDIR_PARTS.contains(childName)) {
        planFsFolder(child, rel + "/" + childName, id, false);
      }
    }
  }

  /**
   * Whether a directory has {@code cur/} or {@code new/}, or a subdirectory that does; one that
   * cannot be listed is reported and passed over.
   */
  private boolean holdsMaildir(Path dir, String rel) {
    if (fence.isDirectory(dir.resolve("cur")) || fence.isDirectory(dir.resolve("new"))) {
      return true;
    }
    try {
      for (Path entryName : fence.names(dir)) {
        Path entry = dir.resolve(entryName);
        String name = entryName.toString();
        if (fence.isDirectory(entry)
            && !MAILDIR_PARTS.contains(name)
            && holdsMaildir(entry, rel + "/" + name)) {
          return true;
        }
      }
    } catch (IOException e) {
      problem(new SourceProblem(rel, "cannot list the directory: " + e.getMessage()));
    }
    return false;
  }

  private void addMaildirMessages(Path dir, String rel, int folderId) {
    String prefix = rel.isEmpty() ? "" : rel + "/";
    List<String> keywords = null;
    CourierKeywords courier = null;
    for (String sub : List.of("cur", "new")) {
      Path d = dir.resolve(sub);
      BasicFileAttributes attrs = attributes(fence, d);
      if (attrs != null && attrs.isSymbolicLink()) {
        linkNotFollowed(d); // a cur/ or new/ swapped for a link: its messages are not read
      } else if (attrs != null && attrs.isDirectory()) {
        if (keywords == null) {
          // One listing says which keyword files are there: most folders have neither, and a
          // missing file's lookup costs a walk through the fence and an exception.
          Set<String> names = entryNames(dir);
          keywords =
              names == null || names.contains(MaildirNames.DOVECOT_KEYWORDS)
                  ? keywords(dir.resolve(MaildirNames.DOVECOT_KEYWORDS), prefix)
                  : List.of();
          // Dovecot's table wins: a Dovecot that served a Courier tree keeps its keywords there.
          courier =
              keywords.isEmpty() && (names == null || names.contains(CourierKeywords.DIR))
                  ? courierKeywords(dir, prefix)
                  : null;
        }
        messageDirs.add(new MessageDir(d, prefix + sub, folderId, keywords, courier));
      }
    }
  }

  /** The names in a directory; null when it cannot be listed (each name is then looked up). */
  private Set<String> entryNames(Path dir) {
    try {
      Set<String> names = new HashSet<>();
      for (Path name : fence.names(dir)) {
        names.add(name.toString());
      }
      return names;
    } catch (IOException e) {
      return null;
    }
  }

  /** A folder's Courier keywords; null when it has none, or they cannot be read (reported). */
  private CourierKeywords courierKeywords(Path folder, String relPrefix) {
    Path dir = folder.resolve(CourierKeywords.DIR);
    if (!fence.isDirectory(dir)) {
      return null;
    }
    String rel = relPrefix + CourierKeywords.DIR;
    try {
      return CourierKeywords.read(fence, dir, detail -> problem(new SourceProblem(rel, detail)));
    } catch (IOException e) {
      problem(
          new SourceProblem(
              rel, "cannot read the keywords (the messages restore without them): " + e));
      return null;
    }
  }

  /** A folder's keyword table; empty when it has none, or it cannot be read (reported). */
  private List<String> keywords(Path file, String relPrefix) {
    if (!fence.isRegularFile(file)) {
      return List.of();
    }
    try {
      return MaildirNames.keywordTable(fence, file);
    } catch (IOException e) {
      problem(
          new SourceProblem(
              relPrefix + MaildirNames.DOVECOT_KEYWORDS,
              "cannot read the keywords (the messages restore without them): " + e.getMessage()));
      return List.of();
    }
  }

  /** Subdirectories, sorted by name; symbolic links are not followed (and are reported). */
  private List<Path> subdirectories(Path dir) throws IOException {
    List<Path> result = new ArrayList<>();
    for (Path name : fence.names(dir)) {
      Path p = dir.resolve(name);
      BasicFileAttributes attrs = attributes(fence, p);
      if (attrs == null) {
        continue;
      }
      if (attrs.isSymbolicLink()) {
        linkNotFollowed(p);
      } else if (attrs.isDirectory()) {
        result.add(p);
      }
    }
    return result;
  }

  /**
   * An entry's own attributes (one {@code stat}: messages are listed twice, so each call counts),
   * or null when it vanished or cannot be read.
   */
  static BasicFileAttributes attributes(PathFence fence, Path p) {
    try {
      return fence.attributes(p);
    } catch (IOException e) {
      return null;
    }
  }

  /** The problem of a symbolic link met in {@code userDir}: links are not followed. */
  static SourceProblem linkNotFollowed(Path userDir, Path p) {
    return new SourceProblem(
        userDir.relativize(p).toString(), "a symbolic link; links are not followed");
  }

  private void linkNotFollowed(Path p) {
    problem(linkNotFollowed(userDir, p));
  }

  /** A named pipe, a socket or a device where a message should be: reading it could block. */
  static SourceProblem notAFile(Path userDir, Path p) {
    return new SourceProblem(
        userDir.relativize(p).toString(),
        "not a file (a named pipe, a socket or a device); not read");
  }

  private static long mtime(PathFence fence, Path p) throws IOException {
    return fence.attributes(p).lastModifiedTime().toMillis();
  }
}
