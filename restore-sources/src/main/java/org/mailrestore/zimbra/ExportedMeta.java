package org.mailrestore.zimbra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;

/** The {@code .meta} of an exported item as Zimbra writes it: its fields, metadata and ACL. */
final class ExportedMeta {

  private ExportedMeta() {}

  /** The item's metadata: kept as it came from a Zimbra archive, else made from its fields. */
  static String metadata(Item item, Revision s) {
    String raw = s.attrs().get(MetaFields.RAW_METADATA);
    if (raw != null) {
      return raw;
    }
    Map<String, Object> metadata = new TreeMap<>();
    if (item.type() == ItemType.CONTACT) {
      Map<String, Object> fields = new TreeMap<>();
      s.attrs()
          .forEach((k, v) -> {
            if (!k.equals(MetaFields.RGB)) {
              fields.put(k, v);
            }
          });
      metadata.put("fld", fields);
    }
    metadata.put("v", (long) ZimbraMeta.VERSION);
    return Bencode.encode(metadata);
  }

  static ZimbraMeta withContent(ZimbraMeta m, Revision s, boolean message) {
    int unread = message && s.flags().indexOf('u') >= 0 ? 1 : 0;
    List<String> tags = s.tags();
    return new ZimbraMeta(
        m.id(),
        m.uuid(),
        m.type(),
        m.parentId(),
        m.folderId(),
        m.imapId(),
        m.date(),
        m.size(),
        MetaFields.zimbraDigest(s.digest()),
        unread,
        m.flags(),
        m.subject(),
        m.name(),
        m.metadata(),
        m.modMetadata(),
        m.changeDate(),
        m.modContent(),
        s.sender(),
        m.extra(),
        m.flagString(),
        m.path(),
        m.tagString(),
        tags.isEmpty() ? null : MetaFields.escapeTags(tags),
        null,
        m.version());
  }

  static ZimbraMeta of(
      int id,
      String uuid,
      int type,
      int parent,
      int folder,
      long dateMillis,
      long size,
      String flags,
      String name,
      String metadata,
      String path,
      String subject) {
    long seconds = dateMillis / 1000;
    return new ZimbraMeta(
        id,
        uuid,
        type,
        parent,
        folder,
        id,
        seconds,
        size,
        null,
        0,
        Flags.toBits(flags) & ~Flags.UNREAD,
        subject,
        name,
        metadata,
        1,
        seconds,
        1,
        null,
        null,
        flags,
        path,
        null,
        null,
        null,
        ZimbraMeta.VERSION);
  }

  static String contactName(Revision s) {
    Map<String, String> f = s.attrs();
    String full = f.get("fullName");
    if (full != null && !full.isBlank()) {
      return full;
    }
    String first = f.getOrDefault("firstName", "");
    String last = f.getOrDefault("lastName", "");
    if (!first.isBlank() || !last.isBlank()) {
      return last.isBlank() ? first : first.isBlank() ? last : last + ", " + first;
    }
    String email = f.get("email");
    return email != null ? email : f.getOrDefault("company", "contact");
  }

  static void putAcl(Map<String, Object> metadata, List<Grant> grants) {
    if (grants.isEmpty()) {
      return;
    }
    List<Object> list = new ArrayList<>();
    for (Grant g : grants) {
      Map<String, Object> m = new TreeMap<>();
      long type =
          switch (g.granteeType()) {
            case USER -> 1;
            case GROUP -> 2;
            case ALL_AUTHENTICATED -> 3;
            case DOMAIN -> 4;
            case PUBLIC -> 6;
            case GUEST -> 7;
          };
      m.put("t", type);
      m.put("r", Containers.rightsBits(g.rights()));
      putIfPresent(m, "g", g.granteeId());
      putIfPresent(m, "n", g.granteeName());
      list.add(m);
    }
    Map<String, Object> acl = new TreeMap<>();
    acl.put("g", list);
    metadata.put("aclm", acl);
  }

  static void putIfPresent(Map<String, Object> map, String key, String value) {
    if (value != null) {
      map.put(key, value);
    }
  }
}
