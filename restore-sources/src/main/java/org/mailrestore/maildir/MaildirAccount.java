package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.UUID;
import org.mailrestore.files.FileNames;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.ModifiedUtf7;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.SourceProblem;

/**
 * One user's directory of a Maildir tree, seen as an account: its folders (planned from the
 * directories alone, cheaply, when the account is first looked at) and its messages (read, hashed
 * and written as item records when its items are first read). Item ids follow the sorted order of
 * the tree, so the same tree always gives the same ids: a resumed restore must see an unchanged
 * tree.
 */
final class MaildirAccount {

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
  private record MessageDir(
      Path dir, String relDir, int folderId, List<String> keywords, CourierKeywords courier) {}

  /** A Maildir's own directories: deliveries read, new, and in progress. */
  private static final Set<String> MAILDIR_PARTS = Set.of("cur", "new", "tmp");

  private final String accountId;
  private final Path userDir;
  private final MaildirLayout layout;
  private final List<Folder> folders = new ArrayList<>();
  private final List<MessageDir> messageDirs = new ArrayList<>();
  private final Map<Integer, String> systemDirs = new LinkedHashMap<>();
  private final Set<SourceProblem> problems =
      java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());
  private int firstMessageId;
  private int nextId = SystemFolder.FIRST_USER_ID;

  MaildirAccount(String accountId, Path userDir, MaildirLayout layout) throws IOException {
    this.accountId = accountId;
    this.userDir = userDir;
    this.layout = layout.resolve(userDir);
    if (this.layout == MaildirLayout.MAILDIR) {
      planMaildir();
    } else {
      planPlain();
    }
    firstMessageId = nextId;
  }

  private void problem(SourceProblem p) {
    problems.add(p);
  }

  MaildirLayout layout() {
    return layout;
  }

  /** System folder id to the directory that became it. */
  Map<Integer, String> systemDirs() {
    return systemDirs;
  }

  /** What could not be read, in no order; the same problem met twice is listed once. */
  List<SourceProblem> problems() {
    return List.copyOf(problems);
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
                id, p.parentId(), MaildirNames.folderName(name), p.rel(), true, mtime(p.dir())));
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
                  last ? mtime(dir) : 0));
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
      folders.add(new Folder(id, parentId, MaildirNames.folderName(name), rel, true, mtime(dir)));
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
    if (Files.isDirectory(dir.resolve("cur"), LinkOption.NOFOLLOW_LINKS)
        || Files.isDirectory(dir.resolve("new"), LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
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
      if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
        if (keywords == null) {
          keywords = keywords(dir.resolve(MaildirNames.DOVECOT_KEYWORDS), prefix);
          // Dovecot's table wins: a Dovecot that served a Courier tree keeps its keywords there.
          courier = keywords.isEmpty() ? courierKeywords(dir, prefix) : null;
        }
        messageDirs.add(new MessageDir(d, prefix + sub, folderId, keywords, courier));
      }
    }
  }

  /** A folder's Courier keywords; null when it has none, or they cannot be read (reported). */
  private CourierKeywords courierKeywords(Path folder, String relPrefix) {
    Path dir = folder.resolve(CourierKeywords.DIR);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    String rel = relPrefix + CourierKeywords.DIR;
    try {
      return CourierKeywords.read(dir, detail -> problem(new SourceProblem(rel, detail)));
    } catch (IOException e) {
      problem(
          new SourceProblem(
              rel, "cannot read the keywords (the messages restore without them): " + e));
      return null;
    }
  }

  /** A folder's keyword table; empty when it has none, or it cannot be read (reported). */
  private List<String> keywords(Path file, String relPrefix) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    try {
      return MaildirNames.keywordTable(file);
    } catch (IOException e) {
      problem(
          new SourceProblem(
              relPrefix + MaildirNames.DOVECOT_KEYWORDS,
              "cannot read the keywords (the messages restore without them): " + e.getMessage()));
      return List.of();
    }
  }

  /** The folder items, parents first. */
  List<Folder> folders() {
    return folders;
  }

  /**
   * The account's item records of these types: its folders (planned already), then every message,
   * read as the stream passes it (hashed for its digest, its headers parsed for the list fields)
   * and registered with {@code blobs} so its blob can be opened by digest.
   */
  ItemStream items(Set<ItemType> types, MaildirBlobSource blobs) {
    List<Item> folderItems = new ArrayList<>();
    if (types.contains(ItemType.FOLDER)) {
      for (Folder f : folders) {
        folderItems.add(folderItem(f));
      }
    }
    boolean messages = types.contains(ItemType.MESSAGE);
    return new ItemStream() {
      private int folderIndex;
      private int dirIndex = messages ? 0 : messageDirs.size();
      private List<Path> files = List.of();
      private int fileIndex;
      private int nextId = firstMessageId;
      private final byte[] head = new byte[MessageFileRead.HEAD_BYTES];
      private final byte[] buffer = new byte[64 * 1024];
      private ItemEntry next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          next = advance();
        }
        return next != null;
      }

      @Override
      public ItemEntry next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ItemEntry e = next;
        next = null;
        return e;
      }

      private ItemEntry advance() {
        if (folderIndex < folderItems.size()) {
          Item f = folderItems.get(folderIndex++);
          return new ItemEntry.Decoded(f, f.revisions().get(0).name());
        }
        while (dirIndex < messageDirs.size()) {
          MessageDir md = messageDirs.get(dirIndex);
          if (fileIndex == 0 && files.isEmpty()) {
            files = entries(md.dir(), md.relDir());
          }
          while (fileIndex < files.size()) {
            Path path = files.get(fileIndex++);
            BasicFileAttributes attrs = regularFile(path);
            if (attrs == null) {
              continue;
            }
            int id = nextId++;
            Item message = message(md, path, attrs, id, head, buffer, blobs);
            if (message != null) {
              return new ItemEntry.Decoded(message, relative(md, path));
            }
          }
          dirIndex++;
          files = List.of();
          fileIndex = 0;
        }
        return null;
      }

      @Override
      public void close() {}
    };
  }

  private Item folderItem(Folder f) {
    Revision.Builder r =
        Revision.builder(1, f.mtime())
            .uuid(uuid("folder:" + (f.relDir() == null ? "#" + f.id() : f.relDir())))
            .folder(f.parentId())
            .name(f.name())
            .view("message");
    if (f.relDir() != null) {
      r.attrs(Map.of(MaildirNames.DIR_ATTR, MaildirNames.encode(f.relDir())));
    }
    return new Item(f.id(), ItemType.FOLDER, List.of(r.build()));
  }

  private static String relative(MessageDir md, Path file) {
    String name = file.getFileName().toString();
    return md.relDir().isEmpty() ? name : md.relDir() + "/" + name;
  }

  /** One message read (hashed, headers parsed), or null when its file cannot be read. */
  private Item message(
      MessageDir md,
      Path file,
      BasicFileAttributes attrs,
      int id,
      byte[] head,
      byte[] buffer,
      MaildirBlobSource blobs) {
    String name = file.getFileName().toString();
    String rel = relative(md, file);
    try {
      MessageFileRead read =
          MessageFileRead.of(file, attrs.size(), head, buffer, layout == MaildirLayout.MAILDIR);
      MessageHeaders headers = read.headers();
      long mtime = attrs.lastModifiedTime().toMillis();
      MaildirNames.State state =
          layout != MaildirLayout.MAILDIR
              ? MaildirNames.State.NONE
              : md.courier() != null
                  ? MaildirNames.stateWith(name, md.courier().of(name))
                  : MaildirNames.state(name, md.keywords());
      Revision r =
          Revision.builder(1, mtime)
              .uuid(uuid("message:" + rel))
              .folder(md.folderId())
              .flags(state.flags())
              .tags(state.tags())
              .date(headers.date() != null ? headers.date() : mtime)
              .blob(read.size(), read.digest())
              .sender(headers.sender())
              .subject(headers.subject())
              .attrs(state.attrs(rel))
              .build();
      blobs.register(
          accountId, read.digest(), file, attrs, read.whole(), read.compression(), read.size());
      return new Item(id, ItemType.MESSAGE, List.of(r));
    } catch (IOException e) {
      problem(new SourceProblem(rel, "cannot read the message: " + e.getMessage()));
      return null;
    }
  }

  private String uuid(String what) {
    return UUID.nameUUIDFromBytes((accountId + "/" + what).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /**
   * An entry's own attributes (one {@code stat}: messages are listed twice, so each call counts),
   * or null when it vanished or cannot be read.
   */
  private static BasicFileAttributes attributes(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return null;
    }
  }

  /** Subdirectories, sorted by name; symbolic links are not followed (and are reported). */
  private List<Path> subdirectories(Path dir) throws IOException {
    List<Path> result = new ArrayList<>();
    for (Path p : sorted(dir)) {
      BasicFileAttributes attrs = attributes(p);
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
   * A folder's entries, sorted by name: only their paths, so that a folder of a million messages
   * costs about 100 bytes each while it is read (decision 0021). Each is examined when its turn
   * comes ({@link #regularFile}).
   */
  private List<Path> entries(Path dir, String rel) {
    try {
      return sorted(dir);
    } catch (IOException e) {
      problem(new SourceProblem(rel, "cannot list the folder: " + e.getMessage()));
      return List.of();
    }
  }

  /**
   * The attributes of a message file (one {@code stat}, kept for the copy's check), or null for
   * anything else: a symbolic link is reported and not followed, a directory or a file that
   * vanished is passed over.
   */
  private BasicFileAttributes regularFile(Path p) {
    BasicFileAttributes attrs = attributes(p);
    if (attrs == null) {
      return null;
    }
    if (attrs.isRegularFile()) {
      return attrs;
    }
    if (attrs.isSymbolicLink() && !Files.isDirectory(p)) {
      linkNotFollowed(p);
    }
    return null;
  }

  private void linkNotFollowed(Path p) {
    problem(
        new SourceProblem(
            userDir.relativize(p).toString(), "a symbolic link; links are not followed"));
  }

  private static List<Path> sorted(Path dir) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entries::add);
    }
    entries.sort(null);
    return entries;
  }

  private static long mtime(Path p) throws IOException {
    return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis();
  }
}
