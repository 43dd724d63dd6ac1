package org.mailrestore.zimbra;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.mailrestore.blob.BlobException;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * One account as a Zimbra archive's entries, in Zimbra's order: folders, search folders and tags
 * sorted by path, then the content; per item its {@code .meta} then its content entry; a folder's
 * items spilling into {@code Folder!1}... every 500.
 */
final class ArchiveWriter {

  /** What was written. */
  record Counts(long folders, long items, long bytes, long skipped, List<String> problems) {}

  /** The system folders Zimbra exports, with the view it gives them. */
  private static final List<SystemFolder> EXPORTED_SYSTEM =
      List.of(
          SystemFolder.INBOX,
          SystemFolder.TRASH,
          SystemFolder.JUNK,
          SystemFolder.SENT,
          SystemFolder.DRAFTS,
          SystemFolder.CONTACTS,
          SystemFolder.CALENDAR,
          SystemFolder.AUTO_CONTACTS,
          SystemFolder.CHATS,
          SystemFolder.TASKS,
          SystemFolder.BRIEFCASE);

  private final MailSource source;
  private final Account account;
  private final TarWriter tar;
  private final Map<Integer, List<String>> paths = new HashMap<>();
  private final Map<Integer, Integer> spill = new HashMap<>();
  private final Set<String> contactNames = new HashSet<>();
  private final List<String> problems = new ArrayList<>();
  private long folders;
  private long items;
  private long bytes;
  private long skipped;

  ArchiveWriter(MailSource source, Account account, TarWriter tar) {
    this.source = source;
    this.account = account;
    this.tar = tar;
  }

  Counts write() throws IOException {
    Map<Integer, Item> containers = new TreeMap<>();
    try (ItemStream stream = source.items(account.id(), ItemType.containers())) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
          containers.put(d.item().id(), d.item());
        }
      }
    }
    paths.put(SystemFolder.USER_ROOT.id(), List.of());
    for (SystemFolder f : EXPORTED_SYSTEM) {
      paths.put(f.id(), List.of(f.folderName()));
    }
    for (Item item : containers.values()) {
      if (item.type().isFolderLike() && !SystemFolder.isReserved(item.id())) {
        pathOf(item.id(), containers, new HashSet<>());
      }
    }
    Map<Integer, List<Grant>> grants = grantsByFolder();
    for (SystemFolder f : EXPORTED_SYSTEM) {
      writeSystemFolder(f, grants.getOrDefault(f.id(), List.of()));
    }
    for (ItemType type : List.of(ItemType.FOLDER, ItemType.SEARCH_FOLDER, ItemType.TAG)) {
      List<Item> ofType =
          containers.values().stream()
              .filter(i ->
                  i.type() == type
                      && (type == ItemType.TAG
                          || (paths.containsKey(i.id()) && !SystemFolder.isReserved(i.id()))))
              .sorted(Comparator.comparing(i -> sortKey(i)))
              .toList();
      for (Item item : ofType) {
        writeContainer(item, grants.getOrDefault(item.id(), List.of()));
      }
    }
    long mountpoints =
        containers.values().stream().filter(i -> i.type() == ItemType.MOUNTPOINT).count();
    if (mountpoints > 0) {
      skipped += mountpoints;
      problems.add(
          account.name()
              + ": "
              + mountpoints
              + " mountpoints not exported (a Zimbra archive names a mountpoint's owner by"
              + " its Zimbra account id, which this export cannot know)");
    }
    try (ItemStream stream = source.items(account.id(), ItemType.contents())) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
          writeContent(d);
        }
      }
    }
    return new Counts(folders, items, bytes, skipped, problems);
  }

  private String sortKey(Item item) {
    Revision s = item.latest().orElseThrow();
    return item.type() == ItemType.TAG
        ? s.name().toLowerCase(Locale.ROOT)
        : ArchivePaths.join(paths.get(item.id())).toLowerCase(Locale.ROOT);
  }

  /** A folder's path from its parents; null when its chain is broken or loops. */
  private List<String> pathOf(int id, Map<Integer, Item> containers, Set<Integer> visiting) {
    List<String> known = paths.get(id);
    if (known != null) {
      return known;
    }
    Item item = containers.get(id);
    if (item == null || !item.type().isFolderLike() || !visiting.add(id)) {
      return null;
    }
    Revision s = item.latest().orElseThrow();
    List<String> parent = pathOf(s.folderId(), containers, visiting);
    if (parent == null) {
      problems.add(
          account.name() + ": folder " + id + " (" + s.name() + ") has no parent: not exported");
      return null;
    }
    List<String> path = new ArrayList<>(parent);
    path.add(s.name());
    paths.put(id, List.copyOf(path));
    return path;
  }

  private Map<Integer, List<Grant>> grantsByFolder() {
    Map<Integer, List<Grant>> byFolder = new HashMap<>();
    if (source.grants(account.id()) instanceof Parsed.Ok<List<Grant>>(List<Grant> list, String w)) {
      for (Grant g : list) {
        byFolder.computeIfAbsent(g.folderId(), k -> new ArrayList<>()).add(g);
      }
    }
    return byFolder;
  }

  private void writeSystemFolder(SystemFolder f, List<Grant> grants) throws IOException {
    Map<String, Object> metadata = new TreeMap<>();
    Long view = MetaFields.viewValue(f.view());
    if (view != null) {
      metadata.put("vt", view);
    }
    ExportedMeta.putAcl(metadata, grants);
    metadata.put("v", (long) ZimbraMeta.VERSION);
    ZimbraMeta meta =
        ExportedMeta.of(
            f.id(),
            null,
            ItemType.FOLDER.code(),
            SystemFolder.USER_ROOT.id(),
            SystemFolder.USER_ROOT.id(),
            0,
            0,
            "",
            f.folderName(),
            Bencode.encode(metadata),
            ArchivePaths.join(paths.get(f.id())),
            "");
    writeMeta(meta, "", f.folderName(), ItemType.FOLDER, 0, false);
    folders++;
  }

  private void writeContainer(Item item, List<Grant> grants) throws IOException {
    Revision s = item.latest().orElseThrow();
    Map<String, Object> metadata = new TreeMap<>();
    Long color = MetaFields.colorValue(s.color(), s.attrs());
    if (color != null) {
      metadata.put("c", color);
    }
    Long view = MetaFields.viewValue(s.view());
    if (view != null) {
      metadata.put("vt", view);
    }
    String path;
    String entryFolder;
    int parent;
    if (item.type() == ItemType.TAG) {
      path = "/Tags/" + s.name();
      entryFolder = "Tags";
      parent = SystemFolder.TAGS.id();
    } else {
      List<String> segments = paths.get(item.id());
      path = ArchivePaths.join(segments);
      entryFolder = ArchivePaths.entryFolder(segments.subList(0, segments.size() - 1));
      parent = s.folderId();
      if (item.type() == ItemType.SEARCH_FOLDER) {
        metadata.put("q", s.attrs().getOrDefault("query", ""));
        ExportedMeta.putIfPresent(metadata, "t", s.attrs().get("types"));
        ExportedMeta.putIfPresent(metadata, "s", s.attrs().get("sort"));
      } else {
        ExportedMeta.putAcl(metadata, grants);
      }
    }
    metadata.put("v", (long) ZimbraMeta.VERSION);
    ZimbraMeta meta =
        ExportedMeta.of(
            item.id(),
            s.uuid(),
            item.type().code(),
            parent,
            parent,
            s.date(),
            0,
            s.flags(),
            s.name(),
            Bencode.encode(metadata),
            path,
            null);
    writeMeta(meta, entryFolder, s.name(), item.type(), s.date(), false);
    folders++;
  }

  private void writeContent(ItemEntry.Decoded d) throws IOException {
    Item item = d.item();
    Revision s = item.latest().orElseThrow();
    List<String> folder = paths.get(s.folderId());
    if (folder == null) {
      skipped++;
      problems.add(
          account.name()
              + ": item "
              + item.id()
              + " is in folder "
              + s.folderId()
              + ", which the archive does not hold: not exported");
      return;
    }
    String name;
    String path = ArchivePaths.join(folder);
    String ext = null;
    boolean prefix = true;
    switch (item.type()) {
      case MESSAGE -> {
        name = s.subject();
        ext = "eml";
      }
      case APPOINTMENT -> {
        name = s.subject();
        ext = "appt";
      }
      case TASK -> {
        name = s.subject();
        ext = "task";
      }
      case DOCUMENT -> {
        name = s.name();
        prefix = false;
        path = folder.isEmpty() ? "/" + name : path + "/" + name;
      }
      case CONTACT -> name = ExportedMeta.contactName(s);
      default -> {
        skipped++;
        return;
      }
    }
    boolean hasContent = s.digest() != null || d.passing() != null;
    long size = d.passing() != null && s.digest() == null ? d.passing().size() : s.size();
    ZimbraMeta meta =
        ExportedMeta.of(
            item.id(),
            s.uuid(),
            item.type().code(),
            -1,
            s.folderId(),
            s.date(),
            hasContent ? size : 0,
            s.flags(),
            item.type() == ItemType.DOCUMENT ? s.name() : null,
            ExportedMeta.metadata(item, s),
            path,
            s.subject());
    meta = ExportedMeta.withContent(meta, s, item.type() == ItemType.MESSAGE);
    String entryFolder = spilled(s.folderId(), ArchivePaths.entryFolder(folder));
    String file =
        item.type() == ItemType.CONTACT
            ? uniqueContactFile(entryFolder, name)
            : ArchivePaths.entryFile(item.id(), item.type().wireName(), name, prefix)
                + (ext == null ? "" : "." + ext);
    String entry = entryFolder.isEmpty() ? file : entryFolder + "/" + file;
    boolean unread = item.type() == ItemType.MESSAGE && s.flags().indexOf('u') >= 0;
    writeEntry(entry + ".meta", meta.toJson(), item.type(), s.date(), unread);
    if (hasContent && item.type() != ItemType.CONTACT) {
      try (InputStream in =
          d.passing() != null
              ? d.passing().open()
              : source.blobs().openVerified(s.digest(), s.size())) {
        tar.putEntry(
            entry, size, s.date() / 1000, mode(unread), gname(item.type()), item.type().code());
        byte[] buffer = new byte[1 << 16];
        long copied = 0;
        int n;
        while ((n = in.read(buffer)) >= 0) {
          tar.write(buffer, 0, n);
          copied += n;
        }
        tar.closeEntry();
        bytes += copied;
      } catch (BlobException e) {
        throw new IOException(
            account.name() + ": item " + item.id() + " cannot be exported: " + e.getMessage(), e);
      }
    }
    items++;
  }

  private void writeMeta(
      ZimbraMeta meta, String entryFolder, String name, ItemType type, long date, boolean unread)
      throws IOException {
    String file = ArchivePaths.entryFile(meta.id(), type.wireName(), name, true);
    writeEntry(
        (entryFolder.isEmpty() ? file : entryFolder + "/" + file) + ".meta",
        meta.toJson(),
        type,
        date,
        unread);
  }

  private void writeEntry(String name, byte[] content, ItemType type, long date, boolean unread)
      throws IOException {
    tar.putEntry(name, content.length, date / 1000, mode(unread), gname(type), type.code());
    tar.write(content);
    tar.closeEntry();
  }

  /** A folder's entry name with Zimbra's spill suffix: {@code Inbox!1} from its 500th item on. */
  private String spilled(int folderId, String entryFolder) {
    int count = spill.merge(folderId, 1, Integer::sum);
    int batch = count / ArchivePaths.SPILL;
    return batch > 0 ? entryFolder + "!" + batch : entryFolder;
  }

  private String uniqueContactFile(String entryFolder, String name) {
    String base = ArchivePaths.entryFile(0, "contact", name, false);
    for (int counter = 0; ; counter++) {
      String file = counter == 0 ? base : base + String.format(Locale.ROOT, "-%02d", counter);
      if (contactNames.add((entryFolder + "/" + file).toLowerCase(Locale.ROOT))) {
        return file;
      }
    }
  }

  private static int mode(boolean unread) {
    return unread ? TarWriter.MODE_UNREAD : TarWriter.MODE_READ;
  }

  /** Zimbra's name of a type, as its archives carry it in the group name. */
  static String gname(ItemType type) {
    return switch (type) {
      case SEARCH_FOLDER -> "search folder";
      case MOUNTPOINT -> "remote folder";
      default -> type.wireName();
    };
  }
}
