package org.mailrestore.zimbra;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.SourceProblem;
import org.mailrestore.zimbra.ArchivePaths.BadPathException;
import org.mailrestore.zimbra.ArchiveRecords.ItemRecord;
import org.mailrestore.zimbra.ArchiveRecords.Orphan;
import org.mailrestore.zimbra.ArchiveRecords.Record;

/**
 * What a first pass over an account's archive learns, before any content is restored: its folder
 * tree (from the {@code Path} of every item, not from entry names: {@code Inbox!1} is the Inbox),
 * with the folders only implied by a path created, system folders mapped onto ours; its tags; its
 * shares; and the newest version of each document. Holds one entry per folder, tag and document.
 */
final class ArchivePlan {

  /** Zimbra's structural folders (user root, root, tags, conversations): never items of ours. */
  private static final Set<Integer> STRUCTURAL = Set.of(1, 8, 9, 11);

  private final String archive;
  private final Containers containers;
  private final List<ItemEntry> containerEntries = new ArrayList<>();
  private final Map<String, Integer> folderByKey = new HashMap<>();
  private final Map<Integer, String> tagNamesById = new HashMap<>();
  private final Map<Integer, Long> documentVersions = new HashMap<>();
  private final Map<String, List<String>> impliedFolders = new LinkedHashMap<>();
  private final List<ItemRecord> folderRecords = new ArrayList<>();
  private final List<ItemRecord> tagRecords = new ArrayList<>();
  private final List<SourceProblem> problems = new ArrayList<>();
  private long maxId = SystemFolder.FIRST_USER_ID - 1;
  private int nextSynthetic;
  private int firstOrphanId;

  private ArchivePlan(String archive, ZimbraIds ids) {
    this.archive = archive;
    this.containers = new Containers(this, ids);
  }

  /** Plans an account from a pass over its records. */
  static ArchivePlan scan(String archive, ArchiveRecords records, ZimbraIds ids) {
    ArchivePlan plan = new ArchivePlan(archive, ids);
    Record r;
    while ((r = records.next()) != null) {
      switch (r) {
        case ItemRecord item -> plan.learn(item);
        case Orphan o -> plan.learnOrphan(o);
        default -> {
          // bad entries and a broken end are reported by the content pass, once
        }
      }
    }
    plan.build();
    return plan;
  }

  private void learn(ItemRecord r) {
    ZimbraMeta m = r.meta();
    maxId = Math.max(maxId, m.id());
    ItemType type = MetaFields.type(m.type());
    if (type == null) {
      return;
    }
    if (type == ItemType.TAG) {
      tagRecords.add(r);
      return;
    }
    if (type.isFolderLike()) {
      folderRecords.add(r);
      return;
    }
    try {
      List<String> segments = ArchivePaths.segments(m.path());
      if (type == ItemType.DOCUMENT && !segments.isEmpty()) {
        segments = segments.subList(0, segments.size() - 1);
        documentVersions.merge(m.id(), ContentMapper.version(m), Math::max);
      }
      impliedFolders.putIfAbsent(ArchivePaths.key(segments), segments);
    } catch (BadPathException e) {
      // the content pass reports the item
    }
  }

  private void learnOrphan(Orphan o) {
    if (o.archiveHasMeta()) {
      return;
    }
    List<String> segments = ContentMapper.orphanFolder(o.entry().name());
    if (segments != null) {
      impliedFolders.putIfAbsent(ArchivePaths.key(segments), segments);
    }
  }

  /** Folders parents first, with those only implied by a path; then tags. */
  private void build() {
    nextSynthetic = (int) Math.min(Integer.MAX_VALUE, maxId + 1);
    for (ItemRecord t : tagRecords) {
      containers.tag(t).ifPresent(containerEntries::add);
    }
    List<Planned> planned = new ArrayList<>();
    for (ItemRecord f : folderRecords) {
      ZimbraMeta m = f.meta();
      if (STRUCTURAL.contains(m.id())) {
        continue;
      }
      List<String> segments;
      try {
        segments = ArchivePaths.segments(m.path());
      } catch (BadPathException e) {
        containerEntries.add(containers.undecodable(f, e.getMessage()));
        continue;
      }
      if (segments.isEmpty()) {
        continue; // a root by another id
      }
      String key = ArchivePaths.key(segments);
      if (folderByKey.containsKey(key)) {
        containerEntries.add(
            containers.undecodable(
                f, "another folder of the archive has the same path (names are case-blind)"));
        continue;
      }
      SystemFolder system = SystemFolder.byId(m.id());
      int id;
      if (system != null && segments.size() == 1) {
        folderByKey.put(key, m.id());
        continue; // the target has its own
      } else if (SystemFolder.isReserved(m.id()) || m.id() <= 0) {
        id = synthetic();
      } else {
        id = m.id();
      }
      folderByKey.put(key, id);
      planned.add(new Planned(id, segments, f));
    }
    for (Planned p : List.copyOf(planned)) {
      implyParents(p.segments(), planned);
    }
    for (List<String> segments : impliedFolders.values()) {
      implyParents(segments, planned);
      implyFolder(segments, planned);
    }
    planned.sort(
        Comparator.comparingInt((Planned p) -> p.segments().size())
            .thenComparing(p -> ArchivePaths.key(p.segments())));
    for (Planned p : planned) {
      int parent = parentOf(p.segments());
      ItemEntry entry =
          p.record() == null
              ? implied(p.id(), parent, p.segments())
              : containers.folder(p.record(), p.id(), parent);
      if (entry != null) {
        containerEntries.add(entry); // null: a mountpoint left out (counted as not carried)
      }
    }
    firstOrphanId = nextSynthetic;
  }

  /** The id of the first message without {@code .meta}; the next ones follow in archive order. */
  int firstOrphanId() {
    return firstOrphanId;
  }

  private void implyParents(List<String> segments, List<Planned> planned) {
    for (int depth = 1; depth < segments.size(); depth++) {
      implyFolder(segments.subList(0, depth), planned);
    }
  }

  private void implyFolder(List<String> segments, List<Planned> planned) {
    if (segments.isEmpty()) {
      return;
    }
    String key = ArchivePaths.key(segments);
    if (folderByKey.containsKey(key)) {
      return;
    }
    if (segments.size() == 1) {
      SystemFolder system = systemByName(segments.get(0));
      if (system != null) {
        folderByKey.put(key, system.id());
        return;
      }
    }
    int id = synthetic();
    folderByKey.put(key, id);
    planned.add(new Planned(id, List.copyOf(segments), null));
  }

  private ItemEntry implied(int id, int parent, List<String> segments) {
    Revision r =
        Revision.builder(1, 0)
            .folder(parent)
            .name(segments.get(segments.size() - 1))
            .view("message")
            .build();
    return new ItemEntry.Decoded(
        new Item(id, ItemType.FOLDER, List.of(r)),
        archive + ": folder " + ArchivePaths.join(segments) + " (named by the items' paths only)");
  }

  private static SystemFolder systemByName(String name) {
    for (SystemFolder f : SystemFolder.values()) {
      if (SystemFolder.isReserved(f.id())
          && !STRUCTURAL.contains(f.id())
          && f.parentId() == SystemFolder.USER_ROOT.id()
          && f.folderName().equalsIgnoreCase(name)) {
        return f;
      }
    }
    return null;
  }

  private int synthetic() {
    if (nextSynthetic == Integer.MAX_VALUE) {
      throw new IllegalStateException("item ids reach " + Integer.MAX_VALUE);
    }
    return nextSynthetic++;
  }

  /** The id of the folder with these segments' parent: the user root for top-level folders. */
  int parentOf(List<String> segments) {
    if (segments.size() <= 1) {
      return SystemFolder.USER_ROOT.id();
    }
    Integer id = folderByKey.get(ArchivePaths.key(segments.subList(0, segments.size() - 1)));
    return id == null ? SystemFolder.USER_ROOT.id() : id;
  }

  /** The folder at a path, or -1. */
  int folderId(List<String> segments) {
    if (segments.isEmpty()) {
      return SystemFolder.USER_ROOT.id();
    }
    Integer id = folderByKey.get(ArchivePaths.key(segments));
    return id == null ? -1 : id;
  }

  /** Folder-like items and tags, parents first, and the ones that cannot be restored. */
  List<ItemEntry> containers() {
    return containerEntries;
  }

  Map<Integer, String> tagNamesById() {
    return tagNamesById;
  }

  void nameTag(int id, String name) {
    tagNamesById.put(id, name);
  }

  /** The newest version of a document in the archive (older ones are not restored). */
  long documentVersion(int id) {
    return documentVersions.getOrDefault(id, 0L);
  }

  Containers containersMapper() {
    return containers;
  }

  /** What the plan left out or could not read. */
  List<SourceProblem> problems() {
    return problems;
  }

  void problem(SourceProblem p) {
    problems.add(p);
  }

  String archive() {
    return archive;
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  private record Planned(int id, List<String> segments, ItemRecord record) {}
}
