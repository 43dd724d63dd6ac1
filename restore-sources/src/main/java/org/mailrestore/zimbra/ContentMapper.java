package org.mailrestore.zimbra;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.ItemSizeLimit;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.zimbra.ArchivePaths.BadPathException;
import org.mailrestore.zimbra.ArchiveRecords.ItemRecord;
import org.mailrestore.zimbra.Bencode.BencodeException;
import org.mailrestore.zimbra.TarReader.Entry;

/**
 * Messages, contacts, documents, appointments and tasks of an archive as our items: placed by the
 * folder their {@code Path} names, with their flags, tags, dates and digests, the content entry
 * checked against the {@code .meta}.
 */
final class ContentMapper {

  /** What a record becomes. */
  sealed interface Mapped {}

  /**
   * An item to restore.
   *
   * @param useContent whether the content entry is the item's (a contact's is not: see note)
   * @param note what of it is left out, or null
   * @param picture where a contact's picture is in its content entry, or null
   */
  record Ok(Item item, boolean useContent, String note, ContactPicture.Where picture)
      implements Mapped {

    Ok(Item item, boolean useContent, String note) {
      this(item, useContent, note, null);
    }
  }

  /** A record that cannot be restored, and why. */
  record Failed(int id, ItemType type, String reason, FailureReason failure) implements Mapped {

    Failed(int id, ItemType type, String reason) {
      this(id, type, reason, FailureReason.INVALID_ITEM);
    }
  }

  /**
   * A record that is not restored on purpose: a derived item, or what our model has no place for.
   */
  record LeftOut(String what) implements Mapped {}

  private final ArchivePlan plan;
  private final long maxEntryBytes;

  ContentMapper(ArchivePlan plan, long maxEntryBytes) {
    this.plan = plan;
    this.maxEntryBytes = maxEntryBytes;
  }

  Mapped map(ItemRecord r) {
    ZimbraMeta m = r.meta();
    ItemType type = MetaFields.type(m.type());
    if (type == null) {
      return MetaFields.isDerived(m.type())
          ? new LeftOut(null)
          : new LeftOut(MetaFields.typeName(m.type()) + "s");
    }
    if (m.id() <= 0) {
      return new Failed(0, type, "its id " + m.id() + " is not a positive number");
    }
    List<String> segments;
    try {
      segments = ArchivePaths.segments(m.path());
    } catch (BadPathException e) {
      return new Failed(m.id(), type, e.getMessage());
    }
    String name = null;
    if (type == ItemType.DOCUMENT) {
      if (segments.isEmpty()) {
        return new Failed(m.id(), type, "document without a name in its Path");
      }
      name = m.name() != null ? m.name() : segments.get(segments.size() - 1);
      segments = segments.subList(0, segments.size() - 1);
      if (version(m) < plan.documentVersion(m.id())) {
        return new LeftOut("older versions of documents (the newest is restored)");
      }
      String bad = TextRules.checkName(name);
      if (bad != null) {
        return new Failed(m.id(), type, "document " + bad);
      }
    }
    int folder = plan.folderId(segments);
    if (folder < 0) {
      return new Failed(
          m.id(), type, "its folder " + ArchivePaths.join(segments) + " is not in the archive");
    }
    Entry content = r.content();
    boolean needsContent = type == ItemType.MESSAGE || type == ItemType.DOCUMENT;
    if (content == null && needsContent) {
      return new Failed(
          m.id(),
          type,
          "its content entry is missing: the entry after "
              + r.metaEntry().name()
              + " is not its content (missing, or later in the archive)");
    }
    Map<String, String> attrs = new HashMap<>();
    String note = null;
    ContactPicture.Where picture = null;
    boolean useContent = content != null;
    if (type == ItemType.CONTACT) {
      Map<String, Object> metadata;
      try {
        metadata = Bencode.decodeMap(m.metadata());
      } catch (BencodeException e) {
        return new Failed(m.id(), type, "its metadata cannot be decoded: " + e.getMessage());
      }
      attrs.putAll(MetaFields.strings(metadata.get("fld")));
      if (useContent) {
        // The content holds the contact's attachments: its picture is read from it (into the
        // field image), its files are left out.
        picture = ContactPicture.where(metadata);
        if (picture == null || ContactPicture.hasOtherAttachments(metadata)) {
          note =
              picture == null
                  ? "contact attachments (pictures, files)"
                  : "contact attachments other than pictures (files)";
        }
        useContent = false;
      }
    }
    if (type != ItemType.MESSAGE && m.metadata() != null) {
      if (m.metadata().length() > MetaFields.MAX_RAW_METADATA) {
        return new Failed(
            m.id(),
            type,
            "its metadata is "
                + m.metadata().length()
                + " characters long (at most "
                + MetaFields.MAX_RAW_METADATA
                + " are kept)");
      }
      attrs.put(MetaFields.RAW_METADATA, m.metadata());
    }
    for (Map.Entry<String, String> a : attrs.entrySet()) {
      String bad =
          TextRules.checkText("field " + a.getKey(), a.getValue(), TextRules.MAX_ATTR_LENGTH);
      if (bad != null) {
        return new Failed(m.id(), type, bad);
      }
    }
    long size = 0;
    BlobDigest digest = null;
    if (useContent) {
      if (content.devMajor() != 0 && content.devMajor() != m.type()) {
        return new Failed(
            m.id(),
            type,
            "its content entry says type "
                + content.devMajor()
                + " but its .meta says "
                + m.type()
                + " (the archive was altered)");
      }
      if (m.blobDigest() != null && content.size() != m.size()) {
        return new Failed(
            m.id(),
            type,
            "its content entry holds "
                + content.size()
                + " bytes but its .meta declares "
                + m.size());
      }
      if (content.size() > maxEntryBytes) {
        return new Failed(m.id(), type, overLimit(content), FailureReason.ITEM_TOO_LARGE);
      }
      size = content.size();
      digest = MetaFields.sha256(m.blobDigest());
    }
    Revision rev =
        Revision.builder(1, 0)
            .uuid(m.uuid())
            .folder(folder)
            .name(name)
            .flags(MetaFields.flags(m, type))
            .tags(MetaFields.tags(m, plan.tagNamesById()))
            .date(MetaFields.dateMillis(m.date()))
            .blob(size, digest)
            .sender(MessageHeaders.clean(m.sender(), TextRules.MAX_SENDER_LENGTH))
            .subject(MessageHeaders.clean(m.subject(), TextRules.MAX_SUBJECT_LENGTH))
            .attrs(attrs)
            .build();
    return new Ok(new Item(m.id(), type, List.of(rev)), useContent, note, picture);
  }

  /**
   * A message of an archive without {@code .meta} entries ({@code fmt=tgz&meta=0}, or made by
   * hand): placed by its entry's directory, dated by the entry's time, unread by its mode bit.
   */
  Mapped mapOrphan(Entry e, int id, MessageHeaders headers) {
    List<String> segments = orphanFolder(e.name());
    if (segments == null) {
      return new LeftOut(
          "files without a .meta that are not messages (.ics, .vcf, .csv and documents)");
    }
    int folder = plan.folderId(segments);
    if (folder < 0) {
      return new Failed(id, ItemType.MESSAGE, "its folder is not in the archive");
    }
    if (e.size() > maxEntryBytes) {
      return new Failed(id, ItemType.MESSAGE, overLimit(e), FailureReason.ITEM_TOO_LARGE);
    }
    Revision rev =
        Revision.builder(1, 0)
            .folder(folder)
            .flags(e.unread() ? "u" : "")
            .date(e.mtime() > 0 ? e.mtime() * 1000 : headers.date() == null ? 0 : headers.date())
            .blob(e.size(), null)
            .sender(headers.sender())
            .subject(headers.subject())
            .build();
    return new Ok(new Item(id, ItemType.MESSAGE, List.of(rev)), true, null);
  }

  private String overLimit(Entry e) {
    return ItemSizeLimit.tooLarge("its content entry (" + e.size() + " bytes)", maxEntryBytes)
        .getMessage();
  }

  /** A document's version ({@code ver} in its metadata), 1 when it has none. */
  static long version(ZimbraMeta m) {
    if (m.metadata() == null) {
      return 1;
    }
    try {
      return MetaFields.number(Bencode.decodeMap(m.metadata()), "ver", 1);
    } catch (BencodeException e) {
      return 1;
    }
  }

  /**
   * The folder of a message entry without {@code .meta}: its directory without Zimbra's spill
   * suffix ({@code Inbox!2} is the Inbox), the Inbox for a top-level file; null when the entry is
   * not a message ({@code .eml}) or its directory cannot be a folder.
   */
  static List<String> orphanFolder(String entryName) {
    if (!entryName.toLowerCase(Locale.ROOT).endsWith(".eml")) {
      return null;
    }
    int slash = entryName.lastIndexOf('/');
    if (slash < 0) {
      return List.of("Inbox");
    }
    List<String> segments = new ArrayList<>(List.of(entryName.substring(0, slash).split("/")));
    String last = segments.get(segments.size() - 1);
    segments.set(segments.size() - 1, last.replaceFirst("![0-9]+$", ""));
    try {
      return ArchivePaths.segments(String.join("/", segments));
    } catch (BadPathException e) {
      return null;
    }
  }
}
