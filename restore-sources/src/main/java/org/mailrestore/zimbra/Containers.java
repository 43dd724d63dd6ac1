package org.mailrestore.zimbra;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.Revision.MountTarget;
import org.mailrestore.mail.TextRules;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.SourceProblem;
import org.mailrestore.zimbra.ArchiveRecords.ItemRecord;
import org.mailrestore.zimbra.Bencode.BencodeException;

/**
 * Folders, search folders, mountpoints and tags of an archive as our items, and the shares (folder
 * ACLs) they carry as grants.
 */
final class Containers {

  /** Zimbra's ACL rights bits, in the order of our rights letters. */
  private static final String RIGHTS_LETTERS = "rwidxapf";

  private static final int[] RIGHTS_BITS = {0x1, 0x2, 0x4, 0x8, 0x10, 0x100, 0x400, 0x800};

  private final ArchivePlan plan;
  private final ZimbraIds ids;
  private final List<Grant> grants = new ArrayList<>();
  private final Map<String, Integer> notCarried = new HashMap<>();
  private final Set<Integer> seen = new HashSet<>();
  private final Set<String> tagNames = new HashSet<>();

  Containers(ArchivePlan plan, ZimbraIds ids) {
    this.plan = plan;
    this.ids = ids;
  }

  /** A tag item, or nothing for a second tag of the same name. */
  Optional<ItemEntry> tag(ItemRecord r) {
    ZimbraMeta m = r.meta();
    String name = m.name();
    String bad = TextRules.checkName(name);
    if (bad != null) {
      return Optional.of(undecodable(r, "tag " + bad));
    }
    plan.nameTag(m.id(), name);
    if (!tagNames.add(ArchivePlan.lower(name)) || !seen.add(m.id())) {
      return Optional.empty();
    }
    Map<String, String> attrs = new HashMap<>();
    Map<String, Object> metadata = decodeOrNote(r, "its colour");
    Revision rev =
        Revision.builder(1, 0)
            .uuid(m.uuid())
            .name(name)
            .color(MetaFields.color(metadata, attrs))
            .attrs(attrs)
            .build();
    return Optional.of(
        new ItemEntry.Decoded(new Item(m.id(), ItemType.TAG, List.of(rev)), location(r)));
  }

  /** A folder, search folder or mountpoint, as planned (its id, its parent). */
  ItemEntry folder(ItemRecord r, int id, int parent) {
    ZimbraMeta m = r.meta();
    ItemType type = MetaFields.type(m.type());
    if (!seen.add(id)) {
      return undecodable(r, "another item of the archive has the same id " + m.id());
    }
    Map<String, String> attrs = new HashMap<>();
    Map<String, Object> metadata;
    try {
      metadata = Bencode.decodeMap(m.metadata());
    } catch (BencodeException e) {
      if (type != ItemType.FOLDER) {
        return undecodable(r, "its metadata cannot be decoded: " + e.getMessage());
      }
      plan.problem(
          new SourceProblem(
              location(r),
              "folder "
                  + m.path()
                  + ": its metadata cannot be decoded ("
                  + e.getMessage()
                  + "); restored without its colour, view and shares"));
      metadata = Map.of();
    }
    String name = m.name();
    List<String> segments = segmentsOrEmpty(m.path());
    if (!segments.isEmpty()) {
      name = segments.get(segments.size() - 1);
    }
    Revision.Builder b =
        Revision.builder(1, 0)
            .uuid(m.uuid())
            .folder(parent)
            .name(name)
            .flags(MetaFields.flags(m, type))
            .date(MetaFields.dateMillis(m.date()))
            .color(MetaFields.color(metadata, attrs))
            .view(MetaFields.view(metadata));
    if (type == ItemType.SEARCH_FOLDER) {
      String query = MetaFields.text(metadata, "q");
      if (query == null) {
        return undecodable(r, "search folder without a query");
      }
      attrs.put("query", query);
      putIfPresent(attrs, "types", MetaFields.text(metadata, "t"));
      putIfPresent(attrs, "sort", MetaFields.text(metadata, "s"));
    } else if (type == ItemType.MOUNTPOINT) {
      String owner = MetaFields.text(metadata, "aid");
      long remote = MetaFields.number(metadata, "id", -1);
      if (owner == null || remote <= 0 || remote > Integer.MAX_VALUE) {
        return undecodable(r, "mountpoint without its owner or its remote folder");
      }
      String address = ids.address(owner);
      if (address == null) {
        notCarried.merge(
            ids.isEmpty()
                ? "mountpoints (their owners are Zimbra account ids: give the archive source an"
                    + " ids file to rebuild them)"
                : "mountpoints whose owner the ids file does not name",
            1,
            Integer::sum);
        return null;
      }
      b.mount(new MountTarget(address, (int) remote));
    } else {
      grants(id, metadata);
    }
    b.attrs(attrs);
    return new ItemEntry.Decoded(new Item(id, type, List.of(b.build())), location(r));
  }

  private void grants(int folderId, Map<String, Object> metadata) {
    Object acl = metadata.get("aclm");
    List<?> list = null;
    if (acl instanceof Map<?, ?> map && map.get("g") instanceof List<?> g) {
      list = g;
    } else if (metadata.get("acl") instanceof List<?> old) {
      list = old;
    }
    if (list == null) {
      return;
    }
    for (Object o : list) {
      if (!(o instanceof Map<?, ?> raw)) {
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> g = (Map<String, Object>) raw;
      long type = MetaFields.number(g, "t", -1);
      String grantee = MetaFields.text(g, "g");
      String name = MetaFields.text(g, "n");
      String rights = rights(MetaFields.number(g, "r", 0));
      switch ((int) type) {
        case 1 -> {
          String address = ids.address(grantee);
          grants.add(
              new Grant(
                  folderId,
                  GranteeType.USER,
                  address != null ? address : grantee,
                  address != null ? address : name,
                  rights));
        }
        case 2 -> grants.add(grant(folderId, GranteeType.GROUP, name, grantee, rights));
        case 3 ->
            grants.add(new Grant(folderId, GranteeType.ALL_AUTHENTICATED, null, null, rights));
        case 4 -> grants.add(grant(folderId, GranteeType.DOMAIN, name, grantee, rights));
        case 6 -> grants.add(new Grant(folderId, GranteeType.PUBLIC, null, null, rights));
        case 7 -> {
          grants.add(new Grant(folderId, GranteeType.GUEST, grantee, grantee, rights));
          if (g.containsKey("a")) {
            notCarried.merge(
                "passwords of guest shares (the guests must be invited again)", 1, Integer::sum);
          }
        }
        case 5 -> notCarried.merge("shares to a class of service", 1, Integer::sum);
        case 8 -> notCarried.merge("shares by access key", 1, Integer::sum);
        default -> notCarried.merge("shares of an unknown grantee type", 1, Integer::sum);
      }
    }
  }

  private static Grant grant(
      int folderId, GranteeType type, String name, String zimbraId, String rights) {
    String id = name != null ? name : zimbraId;
    return new Grant(folderId, type, id, id, rights);
  }

  /** Our rights letters for Zimbra's rights bits. */
  static String rights(long bits) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < RIGHTS_BITS.length; i++) {
      if ((bits & RIGHTS_BITS[i]) != 0) {
        sb.append(RIGHTS_LETTERS.charAt(i));
      }
    }
    return sb.toString();
  }

  /** Zimbra's rights bits for our letters. */
  static long rightsBits(String letters) {
    long bits = 0;
    for (char c : letters.toCharArray()) {
      int i = RIGHTS_LETTERS.indexOf(c);
      if (i >= 0) {
        bits |= RIGHTS_BITS[i];
      }
    }
    return bits;
  }

  private Map<String, Object> decodeOrNote(ItemRecord r, String what) {
    try {
      return Bencode.decodeMap(r.meta().metadata());
    } catch (BencodeException e) {
      plan.problem(
          new SourceProblem(
              location(r),
              "its metadata cannot be decoded (" + e.getMessage() + "); restored without " + what));
      return Map.of();
    }
  }

  private static void putIfPresent(Map<String, String> attrs, String key, String value) {
    if (value != null) {
      attrs.put(key, value);
    }
  }

  private static List<String> segmentsOrEmpty(String path) {
    try {
      return ArchivePaths.segments(path);
    } catch (ArchivePaths.BadPathException e) {
      return List.of();
    }
  }

  ItemEntry.Undecodable undecodable(ItemRecord r, String reason) {
    return new ItemEntry.Undecodable(
        r.meta().id(), MetaFields.type(r.meta().type()), location(r), reason, false);
  }

  String location(ItemRecord r) {
    return plan.archive() + ": " + r.metaEntry().name();
  }

  List<Grant> grants() {
    return grants;
  }

  /** What the archive's folders hold that is left out, with how many. */
  Map<String, Integer> notCarried() {
    return notCarried;
  }
}
