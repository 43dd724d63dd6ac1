package org.mailrestore.mbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.PathFence;
import org.mailrestore.files.Compression;
import org.mailrestore.files.FileNames;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mail.TextRules;
import org.mailrestore.source.SourceProblem;

/**
 * The mbox files of a source and the folders they make: one file is one folder (named by the file,
 * {@code .mbox} dropped), a Thunderbird {@code Name.sbd} directory holds the sub-folders of {@code
 * Name}, an Apple Mail {@code Name.mbox} directory holds its messages in a file {@code mbox}, any
 * other directory is a folder of its own. Top-level Inbox, Sent, Drafts, Trash and Junk (and their
 * usual other names) are the system folders. Planned from names alone, except with Gmail labels as
 * folders, when the files' headers are read once for the labels.
 */
final class MboxTree {

  /** A file of messages, how it is compressed, and the folder its messages go to. */
  record MboxFile(Path path, String relative, List<String> folder, Compression compression) {}

  /** A folder to create. */
  record Folder(int id, int parentId, String name, List<String> segments) {}

  /** Files next to mbox files that are not mail (Thunderbird's indexes, Apple Mail's lists). */
  private static final Set<String> NOT_MAIL =
      Set.of(
          "msf", "dat", "json", "plist", "sqlite", "html", "htm", "xml", "db", "ini", "lock", "log",
          "toc", "txt", "bak", "tmp");

  /** Such files without an extension: Apple Mail's index of an exported mailbox. */
  private static final Set<String> NOT_MAIL_NAMES = Set.of("table_of_contents");

  private static final Map<String, SystemFolder> SYSTEM_NAMES = new HashMap<>();

  static {
    for (String n : List.of("inbox")) {
      SYSTEM_NAMES.put(n, SystemFolder.INBOX);
    }
    for (String n : List.of("sent", "sent items", "sent messages", "sent mail")) {
      SYSTEM_NAMES.put(n, SystemFolder.SENT);
    }
    for (String n : List.of("drafts", "draft")) {
      SYSTEM_NAMES.put(n, SystemFolder.DRAFTS);
    }
    for (String n : List.of("trash", "deleted items", "deleted messages")) {
      SYSTEM_NAMES.put(n, SystemFolder.TRASH);
    }
    for (String n : List.of("junk", "spam", "junk e-mail", "junk email")) {
      SYSTEM_NAMES.put(n, SystemFolder.JUNK);
    }
  }

  private final Path root;
  private final List<MboxFile> files = new ArrayList<>();
  private final Map<String, Integer> folderByKey = new LinkedHashMap<>();
  private final List<Folder> folders = new ArrayList<>();
  private final List<SourceProblem> problems = new ArrayList<>();
  private int nextId = SystemFolder.FIRST_USER_ID;

  private final PathFence fence;

  private MboxTree(Path root, PathFence fence) {
    this.root = root;
    this.fence = fence;
  }

  /** Where the tree's files may be read from. */
  PathFence fence() {
    return fence;
  }

  /**
   * Plans the tree at {@code location} (one file, or a directory).
   *
   * @param labelFolders the folders Gmail labels make, found by a pass over the files' headers
   *     (empty unless labels become folders)
   */
  static MboxTree plan(Path location, PathFence fence) throws IOException {
    Path path = location.toAbsolutePath().normalize();
    BasicFileAttributes attrs = fence.attributes(path);
    if (attrs.isSymbolicLink()) {
      throw new IOException(path + " is a symbolic link; links are not followed");
    }
    MboxTree tree = new MboxTree(attrs.isDirectory() ? path : path.getParent(), fence);
    if (attrs.isRegularFile()) {
      tree.addFile(path, List.of(), true);
    } else {
      tree.walk(path, List.of());
    }
    tree.files.sort(Comparator.comparing(MboxFile::relative));
    return tree;
  }

  private void walk(Path dir, List<String> parent) throws IOException {
    List<Path> entries = new ArrayList<>();
    for (Path name : fence.names(dir)) {
      entries.add(dir.resolve(name));
    }
    entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
    for (Path entry : entries) {
      String name = FileNames.of(entry);
      if (name.startsWith(".")) {
        continue;
      }
      BasicFileAttributes attrs;
      try {
        attrs = fence.attributes(entry);
      } catch (IOException e) {
        problems.add(new SourceProblem(relative(entry), "cannot be read: " + e.getMessage()));
        continue;
      }
      if (attrs.isSymbolicLink()) {
        // Links could lead anywhere (outside the allowed roots of the service): not followed.
        problems.add(new SourceProblem(relative(entry), "a symbolic link; links are not followed"));
        continue;
      }
      if (attrs.isDirectory()) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".sbd")) {
          walk(entry, child(parent, name.substring(0, name.length() - 4), entry));
        } else if (lower.endsWith(".mbox") && fence.isRegularFile(entry.resolve("mbox"))) {
          List<String> folder = child(parent, name.substring(0, name.length() - 5), entry);
          if (folder != null) {
            addFile(entry.resolve("mbox"), folder, false);
            walk(entry, folder);
          }
        } else {
          List<String> folder = child(parent, name, entry);
          if (folder != null) {
            walk(entry, folder);
          }
        }
      } else if (attrs.isRegularFile()) {
        if (name.equals("mbox")
            && dir.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".mbox")) {
          continue; // an Apple Mail folder's messages: added with its directory
        }
        String plain = Compression.stripAny(name);
        if (NOT_MAIL.contains(extension(plain)) || NOT_MAIL_NAMES.contains(plain)) {
          continue;
        }
        List<String> folder = child(parent, stripMboxExtension(plain), entry);
        if (folder != null) {
          addFile(entry, folder, false);
        }
      }
    }
  }

  private List<String> child(List<String> parent, String name, Path where) {
    if (parent == null) {
      return null;
    }
    String bad = TextRules.checkName(name);
    if (bad != null) {
      problems.add(
          new SourceProblem(relative(where), "cannot be a folder (its " + bad + "); passed over"));
      return null;
    }
    List<String> folder = new ArrayList<>(parent);
    folder.add(name);
    return List.copyOf(folder);
  }

  private void addFile(Path file, List<String> folder, boolean single) throws IOException {
    Compression compression;
    try {
      compression = Compression.of(fence, file);
      if (!looksLikeMbox(compression, file)) {
        problems.add(
            new SourceProblem(
                relative(file),
                "not an mbox file (no \"From \" line starts it or follows text near its start);"
                    + " passed over"));
        return;
      }
    } catch (IOException e) {
      // Unreadable, or compressed with a corrupt first block: nothing of it can be read.
      problems.add(
          new SourceProblem(relative(file), "cannot be read: " + e.getMessage() + "; passed over"));
      return;
    }
    List<String> segments =
        folder.isEmpty()
            ? List.of(stripMboxExtension(compression.strip(FileNames.of(file))))
            : folder;
    if (single && TextRules.checkName(segments.get(0)) != null) {
      segments = List.of("Inbox");
    }
    files.add(new MboxFile(file, relative(file), segments, compression));
    folderId(segments, true);
  }

  /** Adds a folder a Gmail label makes. */
  void addLabelFolder(List<String> segments) {
    folderId(segments, true);
  }

  /** The id of the folder at {@code segments}, created (with its parents) when asked to. */
  int folderId(List<String> segments, boolean create) {
    String key = key(segments);
    Integer known = folderByKey.get(key);
    if (known != null) {
      return known;
    }
    if (segments.size() == 1) {
      SystemFolder system = SYSTEM_NAMES.get(segments.get(0).toLowerCase(Locale.ROOT));
      if (system != null) {
        folderByKey.put(key, system.id());
        return system.id();
      }
    }
    if (!create) {
      return -1;
    }
    int parent =
        segments.size() == 1
            ? SystemFolder.USER_ROOT.id()
            : folderId(segments.subList(0, segments.size() - 1), true);
    int id = nextId++;
    folderByKey.put(key, id);
    folders.add(new Folder(id, parent, segments.get(segments.size() - 1), segments));
    return id;
  }

  private static String key(List<String> segments) {
    return String.join("/", segments).toLowerCase(Locale.ROOT);
  }

  /** Ids from here on are the messages'. */
  int firstMessageId() {
    return nextId;
  }

  List<MboxFile> files() {
    return files;
  }

  List<Folder> folders() {
    return folders;
  }

  List<SourceProblem> problems() {
    return problems;
  }

  Path root() {
    return root;
  }

  private String relative(Path p) {
    return root.relativize(p).toString();
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  private static String stripMboxExtension(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String ext : List.of(".mbox", ".mbx", ".mbs")) {
      if (lower.endsWith(ext) && name.length() > ext.length()) {
        return name.substring(0, name.length() - ext.length());
      }
    }
    return name;
  }

  /**
   * An empty file (a folder without messages), or one whose first line starts with "From ", or has
   * a separator line after text near its start (the reader reports that text).
   */
  private boolean looksLikeMbox(Compression compression, Path file) throws IOException {
    try (InputStream in = compression.open(fence, file)) {
      byte[] head = in.readNBytes(4096); // most files tell here: a tree may hold thousands
      int first = SeparatorLine.first(head);
      if (first >= 0 || head.length < 4096) {
        return first >= 0;
      }
      byte[] more = in.readNBytes(SeparatorLine.MAX_LEADING - head.length);
      byte[] longer = Arrays.copyOf(head, head.length + more.length);
      System.arraycopy(more, 0, longer, head.length, more.length);
      return SeparatorLine.first(longer) >= 0;
    }
  }
}
