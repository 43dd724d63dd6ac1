package org.mailrestore.export;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.maildir.MaildirLayout;
import org.mailrestore.maildir.MaildirNames;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailstoreReader.StoredAccount;
import org.mailrestore.mailstore.MailstoreReader.StoredItem;

/**
 * Writes a restored mailbox out as a Maildir tree, each message byte for byte as the volume holds
 * it (its digest checked as it is written). A mailbox that came from a Maildir tree goes back to
 * the same layout, directories and file names (kept in the items' {@code maildir.*} attributes);
 * any other mailbox becomes Maildir++ ({@code cur/new/tmp}, {@code .Folder.Sub}, flags in the file
 * names). Only messages have a place in a Maildir; other items are counted as skipped.
 */
public final class MaildirExporter {

  private final MailboxSource source;

  public MaildirExporter(DataSource dataSource, Map<Integer, BlobVolume> volumes) {
    this.source = new MailboxSource(dataSource, volumes);
  }

  /** Exports one account into {@code out}, which must not exist or be empty. */
  public ExportReport export(String accountName, Path out) throws IOException, SQLException {
    StoredAccount account = source.account(accountName);
    Path root = emptyDirectory(out);
    Map<String, String> attributes = Json.toMap(account.attributesJson());
    boolean fromMaildir = attributes.containsKey(MaildirNames.LAYOUT_ATTR);
    MaildirLayout layout =
        fromMaildir
            ? MaildirLayout.parse(attributes.get(MaildirNames.LAYOUT_ATTR))
            : MaildirLayout.MAILDIR;
    Tree tree = new Tree(root, layout, fromMaildir, attributes);
    int mailbox = account.mailboxId();
    source.forEach(
        mailbox, EnumSet.of(ItemType.FOLDER), (page, blobs) -> page.forEach(tree::addFolder));
    tree.createDirectories();
    long[] counts = new long[3]; // messages, bytes, skipped
    source.forEach(
        mailbox,
        ItemType.contents(),
        (page, blobs) -> {
          for (StoredItem item : page) {
            ItemRow row = item.row();
            if (row.type() != ItemType.MESSAGE.code()) {
              counts[2]++;
              continue;
            }
            Path file = tree.messageFile(row);
            if (file == null) {
              continue;
            }
            try (InputStream in = source.open(row, blobs)) {
              write(in, file);
              counts[0]++;
              counts[1] += row.size();
            } catch (FileAlreadyExistsException e) {
              tree.problems.add(
                  "item " + row.id() + ": " + root.relativize(file) + " exists already");
            } catch (BlobException e) {
              tree.problems.add("item " + row.id() + ": " + e.getMessage());
            }
          }
        });
    return new ExportReport(
        List.of(accountName), tree.folderCount, counts[0], counts[1], counts[2], tree.problems);
  }

  static Path emptyDirectory(Path out) throws IOException {
    Path root = out.toAbsolutePath().normalize();
    Files.createDirectories(root);
    try (var entries = Files.list(root)) {
      if (entries.findAny().isPresent()) {
        throw new FileAlreadyExistsException(root + " is not empty; export into a new directory");
      }
    }
    return root;
  }

  /** Writes through a temporary file, so a file is there whole or not at all. */
  private static void write(InputStream in, Path file) throws IOException {
    if (Files.exists(file)) {
      throw new FileAlreadyExistsException(file.toString());
    }
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling(".export-" + file.getFileName() + ".tmp");
    try {
      Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Where folders and messages go. */
  private static final class Tree {
    private final Path root;
    private final MaildirLayout layout;
    private final boolean fromMaildir;
    private final Map<String, String> attributes;
    private final Map<Integer, StoredItem> folders = new HashMap<>();
    private final Map<Integer, String> dirs = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private long folderCount;

    Tree(Path root, MaildirLayout layout, boolean fromMaildir, Map<String, String> attributes) {
      this.root = root;
      this.layout = layout;
      this.fromMaildir = fromMaildir;
      this.attributes = attributes;
    }

    void addFolder(StoredItem folder) {
      folders.put(folder.row().id(), folder);
    }

    /**
     * Creates the folders' directories: for a tree that came from a Maildir, those it had (empty
     * ones included); for any other mailbox, one per folder. Maildir folders get cur, new and tmp.
     */
    void createDirectories() throws IOException {
      List<String> toCreate = new ArrayList<>();
      toCreate.add("");
      for (Map.Entry<String, String> a : attributes.entrySet()) {
        if (a.getKey().startsWith(MaildirNames.SYSTEM_DIR_ATTR_PREFIX)) {
          toCreate.add(MaildirNames.decode(a.getValue()));
        }
      }
      for (StoredItem f : folders.values()) {
        String kept = attr(f.row(), MaildirNames.DIR_ATTR);
        if (kept != null || !fromMaildir) {
          toCreate.add(dirOf(f.row().id()));
        }
      }
      for (String rel : toCreate) {
        Path dir = resolve(rel, "folder");
        if (dir == null) {
          continue;
        }
        Files.createDirectories(dir);
        if (layout == MaildirLayout.MAILDIR) {
          for (String sub : List.of("cur", "new", "tmp")) {
            Files.createDirectories(dir.resolve(sub));
          }
        }
        folderCount++;
      }
    }

    /** The directory of a folder, relative to the root. */
    String dirOf(int folderId) {
      String known = dirs.get(folderId);
      if (known != null) {
        return known;
      }
      // Walk up to a folder whose directory is known, then come back down.
      List<Integer> chain = new ArrayList<>();
      int id = folderId;
      String base = null;
      while (base == null) {
        base = dirs.get(id);
        if (base != null) {
          break;
        }
        StoredItem f = folders.get(id);
        if (f == null) {
          base = systemDir(id);
          break;
        }
        String kept = attr(f.row(), MaildirNames.DIR_ATTR);
        if (kept != null) {
          base = MaildirNames.decode(kept);
          dirs.put(id, base);
          break;
        }
        chain.add(id);
        if (chain.size() > folders.size() + 1) {
          base = ""; // a cycle: cannot happen in a restored store, but never loop
          break;
        }
        id = f.row().folderId();
      }
      String dir = base;
      for (int i = chain.size() - 1; i >= 0; i--) {
        dir = child(dir, folders.get(chain.get(i)).row().name());
        dirs.put(chain.get(i), dir);
      }
      return dir;
    }

    private String systemDir(int id) {
      String kept = attributes.get(MaildirNames.SYSTEM_DIR_ATTR_PREFIX + id);
      if (kept != null) {
        return MaildirNames.decode(kept);
      }
      if (id == SystemFolder.INBOX.id() || SystemFolder.byId(id) == null) {
        return ""; // the root: the inbox of a Maildir, the top of a plain tree
      }
      SystemFolder system = SystemFolder.byId(id);
      return system.parentId() == SystemFolder.USER_ROOT.id() ? child("", system.folderName()) : "";
    }

    private String child(String parent, String name) {
      if (layout == MaildirLayout.MAILDIR) {
        String segment = name.replace('.', '_').replace('/', '_');
        return parent.isEmpty() ? "." + segment : parent + "." + segment;
      }
      String segment = name.replace('/', '_');
      return parent.isEmpty() ? segment : parent + "/" + segment;
    }

    /** Where a message goes, or null (reported) when its kept path is unusable. */
    Path messageFile(ItemRow row) {
      String kept = attr(row, MaildirNames.FILE_ATTR);
      if (kept != null) {
        Path file = resolve(MaildirNames.decode(kept), "item " + row.id());
        if (file != null) {
          return file;
        }
      }
      String dir = dirOf(row.folderId());
      String name =
          layout == MaildirLayout.MAILDIR
              ? (dir.isEmpty() ? "" : dir + "/")
                  + ((row.flags() & Flags.UNREAD) != 0 ? "new/" : "cur/")
                  + (row.date() / 1000)
                  + ".M"
                  + row.id()
                  + "P0.mailrestore:2,"
                  + maildirFlags(row.flags())
              : (dir.isEmpty() ? "" : dir + "/") + row.id() + ".";
      return resolve(name, "item " + row.id());
    }

    /** A path inside the root, or null (reported) for one that would leave it. */
    private Path resolve(String rel, String what) {
      Path p = root.resolve(rel).normalize();
      if (!p.startsWith(root) || Path.of(rel).isAbsolute()) {
        problems.add(what + ": the path \"" + rel + "\" leaves the export directory; skipped");
        return null;
      }
      return p;
    }

    private static String attr(ItemRow row, String key) {
      return row.metadata() == null ? null : Json.toMap(row.metadata()).get(key);
    }
  }

  /** Maildir info letters, in ASCII order as the specification asks. */
  static String maildirFlags(int bits) {
    StringBuilder sb = new StringBuilder();
    if ((bits & Flags.DRAFT) != 0) {
      sb.append('D');
    }
    if ((bits & Flags.FLAGGED) != 0) {
      sb.append('F');
    }
    if ((bits & Flags.FORWARDED) != 0) {
      sb.append('P');
    }
    if ((bits & Flags.REPLIED) != 0) {
      sb.append('R');
    }
    if ((bits & Flags.UNREAD) == 0) {
      sb.append('S');
    }
    if ((bits & Flags.DELETED) != 0) {
      sb.append('T');
    }
    return sb.toString().toUpperCase(Locale.ROOT);
  }
}
