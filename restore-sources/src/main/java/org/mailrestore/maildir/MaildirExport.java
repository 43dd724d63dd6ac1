package org.mailrestore.maildir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.mailrestore.blob.BlobException;
import org.mailrestore.export.ExportFiles;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Keywords;
import org.mailrestore.mail.ModifiedUtf7;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * Writes one account out as a Maildir tree, each message byte for byte (its digest checked as it is
 * written). An account that came from a Maildir tree goes back to the same layout, directories and
 * file names (kept in the items' {@code maildir.*} attributes); any other becomes Maildir++ ({@code
 * cur/new/tmp}, {@code .Folder.Sub}, flags in the file names, tags as Dovecot's keywords). Only
 * messages have a place in a Maildir; other items are counted as skipped.
 */
public final class MaildirExport implements ExportFormat {

  @Override
  public String name() {
    return "maildir";
  }

  @Override
  public String description() {
    return "one account as a Maildir tree (the layout it came from, else Maildir++)";
  }

  @Override
  public boolean singleAccount() {
    return true;
  }

  @Override
  public ExportReport export(MailSource source, List<String> accountIds, Path out)
      throws IOException {
    if (accountIds.size() != 1) {
      throw new IllegalArgumentException("a Maildir export holds one account");
    }
    String accountId = accountIds.get(0);
    Account account =
        switch (source.account(accountId)) {
          case Parsed.Ok<Account>(Account a, String location) -> a;
          case Parsed.Failed<Account>(String location, String reason) ->
              throw new IOException("account " + accountId + " cannot be read: " + reason);
        };
    Path root = ExportFiles.emptyDirectory(out);
    Map<String, String> attributes = account.attributes();
    boolean fromMaildir = attributes.containsKey(MaildirNames.LAYOUT_ATTR);
    MaildirLayout layout =
        fromMaildir
            ? MaildirLayout.parse(attributes.get(MaildirNames.LAYOUT_ATTR))
            : MaildirLayout.MAILDIR;
    Tree tree = new Tree(root, layout, fromMaildir, attributes);
    try (ItemStream folders = source.items(accountId, EnumSet.of(ItemType.FOLDER))) {
      while (folders.hasNext()) {
        if (folders.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
          tree.addFolder(d.item().id(), d.item().latest().get());
        }
      }
    }
    tree.createDirectories();
    long messages = 0;
    long bytes = 0;
    long skipped = 0;
    try (ItemStream items = source.items(accountId, ItemType.contents())) {
      while (items.hasNext()) {
        if (!(items.next() instanceof ItemEntry.Decoded d) || d.item().latest().isEmpty()) {
          continue;
        }
        Item item = d.item();
        Revision state = item.latest().get();
        if (item.type() != ItemType.MESSAGE) {
          skipped++;
          continue;
        }
        Path file = tree.messageFile(item.id(), state);
        if (file == null) {
          continue;
        }
        try (InputStream in = source.blobs().openVerified(state.digest(), state.size())) {
          // The file keeps the message's date: mail clients and tools sort Maildir files by it.
          ExportFiles.write(in, file, state.date() > 0 ? FileTime.fromMillis(state.date()) : null);
          messages++;
          bytes += state.size();
        } catch (FileAlreadyExistsException e) {
          tree.problems.add("item " + item.id() + ": " + root.relativize(file) + " exists already");
        } catch (BlobException e) {
          tree.problems.add("item " + item.id() + ": " + e.getMessage());
        }
      }
    }
    tree.keywords.write(root);
    return new ExportReport(
        List.of(account.name()), tree.folderCount, messages, bytes, skipped, tree.problems);
  }

  /** Where folders and messages go. */
  private static final class Tree {
    private final Path root;
    private final MaildirLayout layout;
    private final boolean fromMaildir;
    private final Map<String, String> attributes;
    private final Map<Integer, Revision> folders = new HashMap<>();
    private final Map<Integer, String> dirs = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final KeywordTables keywords = new KeywordTables();
    private long folderCount;

    Tree(Path root, MaildirLayout layout, boolean fromMaildir, Map<String, String> attributes) {
      this.root = root;
      this.layout = layout;
      this.fromMaildir = fromMaildir;
      this.attributes = attributes;
    }

    void addFolder(int id, Revision folder) {
      if (!SystemFolder.isReserved(id)) {
        folders.put(id, folder); // the system folders (and the roots) have their own places
      }
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
      for (Map.Entry<Integer, Revision> f : folders.entrySet()) {
        String kept = f.getValue().attrs().get(MaildirNames.DIR_ATTR);
        if (kept != null || !fromMaildir) {
          toCreate.add(dirOf(f.getKey()));
        }
      }
      for (String rel : toCreate) {
        Path dir = resolve(rel, "folder");
        if (dir == null) {
          continue;
        }
        java.nio.file.Files.createDirectories(dir);
        if (layout == MaildirLayout.MAILDIR) {
          for (String sub : List.of("cur", "new", "tmp")) {
            java.nio.file.Files.createDirectories(dir.resolve(sub));
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
        Revision f = folders.get(id);
        if (f == null) {
          base = systemDir(id);
          break;
        }
        String kept = f.attrs().get(MaildirNames.DIR_ATTR);
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
        id = f.folderId();
      }
      String dir = base;
      for (int i = chain.size() - 1; i >= 0; i--) {
        dir = child(dir, folders.get(chain.get(i)).name());
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
        // In modified UTF-7, as Dovecot and Courier name Maildir++ folders (and as we read them).
        String segment = ModifiedUtf7.encode(name.replace('.', '_').replace('/', '_'));
        return parent.isEmpty() ? "." + segment : parent + "." + segment;
      }
      String segment = name.replace('/', '_');
      return parent.isEmpty() ? segment : parent + "/" + segment;
    }

    /** Where a message goes, or null (reported) when its kept path is unusable. */
    Path messageFile(int id, Revision message) {
      String kept = message.attrs().get(MaildirNames.FILE_ATTR);
      if (kept != null) {
        String rel = MaildirNames.decode(kept);
        if (resolve(rel, "item " + id) != null) {
          return resolve(withKeywords(rel, message, true), "item " + id);
        }
      }
      String dir = dirOf(message.folderId());
      int flags = Flags.toBits(message.flags());
      String name =
          layout == MaildirLayout.MAILDIR
              ? (dir.isEmpty() ? "" : dir + "/")
                  + ((flags & Flags.UNREAD) != 0 ? "new/" : "cur/")
                  + (message.date() / 1000)
                  + ".M"
                  + id
                  + "P0.mailrestore:2,"
                  + maildirFlags(flags)
              : (dir.isEmpty() ? "" : dir + "/") + id + ".";
      return resolve(withKeywords(name, message, false), "item " + id);
    }

    /**
     * A Maildir message's path with the letters of its keywords (tags, and the flags Dovecot keeps
     * as keywords): {@code $MDNSent}, and {@code $Forwarded} unless a name of the tree's says it
     * with {@code P} (Dovecot ignores that letter). A plain tree has no keywords.
     */
    private String withKeywords(String rel, Revision message, boolean kept) {
      int slash = rel.lastIndexOf('/');
      String parent = slash < 0 ? "" : rel.substring(0, slash);
      String sub = parent.substring(parent.lastIndexOf('/') + 1);
      if (layout != MaildirLayout.MAILDIR || !(sub.equals("cur") || sub.equals("new"))) {
        return rel;
      }
      String fileName = rel.substring(slash + 1);
      int flags = Flags.toBits(message.flags());
      List<KeywordTables.Wanted> wanted = new ArrayList<>();
      message.tags().forEach(tag -> wanted.add(KeywordTables.Wanted.tag(tag)));
      if ((flags & Flags.NOTIFIED) != 0) {
        wanted.add(KeywordTables.Wanted.flag(Keywords.MDN_SENT));
      }
      boolean saysForwarded = kept && MaildirNames.flags(fileName).indexOf('w') >= 0;
      if ((flags & Flags.FORWARDED) != 0 && !saysForwarded) {
        wanted.add(KeywordTables.Wanted.flag(Keywords.FORWARDED));
      }
      Map<Character, String> named =
          MaildirNames.namedKeywords(message.attrs().get(MaildirNames.KEYWORDS_ATTR));
      // The name's letters, and those its keywords were read under elsewhere (Courier's list).
      StringBuilder keptLetters = new StringBuilder();
      if (kept) {
        keptLetters.append(MaildirNames.keywordLetters(fileName));
        for (char letter : new TreeSet<>(named.keySet())) {
          if (keptLetters.indexOf(String.valueOf(letter)) < 0) {
            keptLetters.append(letter);
          }
        }
      }
      if (wanted.isEmpty() && keptLetters.isEmpty()) {
        return rel;
      }
      String maildir =
          parent.length() == sub.length()
              ? ""
              : parent.substring(0, parent.length() - sub.length() - 1);
      String letters =
          keywords.letters(maildir, keptLetters.toString(), named, wanted, problems::add);
      return parent + "/" + MaildirNames.withKeywordLetters(fileName, letters);
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
