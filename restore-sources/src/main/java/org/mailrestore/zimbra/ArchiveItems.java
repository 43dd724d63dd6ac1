package org.mailrestore.zimbra;

import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.PassingItemStream;
import org.mailrestore.zimbra.ArchiveRecords.Bad;
import org.mailrestore.zimbra.ArchiveRecords.Broken;
import org.mailrestore.zimbra.ArchiveRecords.ItemRecord;
import org.mailrestore.zimbra.ArchiveRecords.Orphan;
import org.mailrestore.zimbra.ArchiveRecords.Record;
import org.mailrestore.zimbra.ContentMapper.Failed;
import org.mailrestore.zimbra.ContentMapper.LeftOut;
import org.mailrestore.zimbra.ContentMapper.Mapped;
import org.mailrestore.zimbra.ContentMapper.Ok;

/**
 * An account's items as the engine reads them: the planned folder-like items and tags, then the
 * content, in one pass over the archive with each item's content passing as it goes. Undecodable
 * records are always returned; a broken archive ends the stream with one fatal record that says
 * where.
 */
final class ArchiveItems extends PassingItemStream {

  /** Messages of archives without {@code .meta}: this much is read ahead for their headers. */
  private static final int HEAD = 64 * 1024;

  private final ArchivePlan plan;
  private final Iterator<ItemEntry> containers;
  private final ArchiveRecords records;
  private final ContentMapper mapper;
  private final Set<ItemType> types;
  private final Map<String, Integer> leftOut;
  private final IdSet ids = new IdSet();
  private int nextOrphanId;

  /**
   * @param records the archive from its start, or null when no content type is wanted
   * @param leftOut where what is not carried is counted
   */
  ArchiveItems(
      ArchivePlan plan,
      ArchiveRecords records,
      long maxEntryBytes,
      Set<ItemType> types,
      Map<String, Integer> leftOut) {
    this.plan = plan;
    this.records = records;
    this.types = types;
    this.leftOut = leftOut;
    this.mapper = new ContentMapper(plan, maxEntryBytes);
    this.nextOrphanId = plan.firstOrphanId();
    this.containers =
        plan.containers().stream()
            .filter(e -> !(e instanceof ItemEntry.Decoded d) || types.contains(d.item().type()))
            .iterator();
    for (ItemEntry e : plan.containers()) {
      if (e instanceof ItemEntry.Decoded d) {
        ids.add(d.item().id());
      }
    }
  }

  /** A counter map for {@link #leftOut} that several streams may share. */
  static Map<String, Integer> newCounts() {
    return new ConcurrentHashMap<>();
  }

  @Override
  protected ItemEntry advance() {
    if (containers.hasNext()) {
      return containers.next();
    }
    if (records == null) {
      return null;
    }
    Record r;
    while ((r = records.next()) != null) {
      ItemEntry e =
          switch (r) {
            case ItemRecord item -> item(item);
            case Orphan o -> orphan(o);
            case Bad b ->
                new ItemEntry.Undecodable(0, null, location(b.entry()), b.reason(), false);
            case Broken k -> broken(k);
          };
      if (e != null) {
        return e;
      }
    }
    return null;
  }

  private ItemEntry item(ItemRecord r) {
    ItemType type = MetaFields.type(r.meta().type());
    if (type != null && type.isContainer()) {
      return null; // planned before the content
    }
    String location = location(r.metaEntry());
    Mapped m = mapper.map(r);
    if (m instanceof Ok ok && ok.picture() != null && r.content() != null) {
      m = withPicture(ok, r.content());
    }
    return mapped(m, location, r.content(), MetaFields.sha1(r.meta().blobDigest()), null);
  }

  /** A contact with its picture read from its content entry, or counted as left out. */
  private Ok withPicture(Ok ok, TarReader.Entry entry) {
    ContactPicture.Outcome outcome =
        ContactPicture.read(records.content(), entry.size(), ok.picture());
    if (outcome instanceof ContactPicture.LeftOut l) {
      leftOut.merge(l.why(), 1, Integer::sum);
      return ok;
    }
    String uri = ((ContactPicture.Found) outcome).dataUri();
    Revision state = ok.item().revisions().get(0);
    long together = uri.length();
    for (Map.Entry<String, String> a : state.attrs().entrySet()) {
      together += a.getKey().length() + a.getValue().length();
    }
    if (together > TextRules.MAX_ATTR_LENGTH) {
      leftOut.merge(
          "contact pictures that would take the contact's fields over "
              + TextRules.MAX_ATTR_LENGTH
              + " characters",
          1,
          Integer::sum);
      return ok;
    }
    Item item = ok.item();
    Map<String, String> attrs = new java.util.HashMap<>(state.attrs());
    attrs.put(ContactPicture.FIELD, uri);
    Item with = new Item(item.id(), item.type(), List.of(state.toBuilder().attrs(attrs).build()));
    return new Ok(with, ok.useContent(), ok.note(), ok.picture());
  }

  private ItemEntry orphan(Orphan o) {
    String location = location(o.entry());
    if (o.archiveHasMeta()) {
      return new ItemEntry.Undecodable(
          0,
          null,
          location,
          "a content entry with no .meta right before it (its .meta is missing or elsewhere)",
          false);
    }
    byte[] head = null;
    MessageHeaders headers = MessageHeaders.NONE;
    if (ContentMapper.orphanFolder(o.entry().name()) != null) {
      try {
        InputStream content = records.content();
        head = content.readNBytes((int) Math.min(HEAD, o.entry().size()));
        headers = MessageHeaders.parse(head, head.length);
      } catch (IOException e) {
        return new ItemEntry.Undecodable(0, ItemType.MESSAGE, location, e.getMessage(), false);
      }
    }
    int id = nextOrphanId++;
    return mapped(mapper.mapOrphan(o.entry(), id, headers), location, o.entry(), null, head);
  }

  /**
   * @param entry the content entry the record has, or null
   * @param sha1 the SHA-1 its .meta declares, or null
   * @param head the content's first bytes, read already, or null
   */
  private ItemEntry mapped(
      Mapped m, String location, TarReader.Entry entry, byte[] sha1, byte[] head) {
    return switch (m) {
      case Failed f ->
          new ItemEntry.Undecodable(f.id(), f.type(), location, f.reason(), false, f.failure());
      case LeftOut l -> {
        if (l.what() != null) {
          leftOut.merge(l.what(), 1, Integer::sum);
        }
        yield null;
      }
      case Ok ok -> {
        if (ok.note() != null) {
          leftOut.merge(ok.note(), 1, Integer::sum);
        }
        if (!types.contains(ok.item().type())) {
          yield null;
        }
        if (!ids.add(ok.item().id())) {
          yield new ItemEntry.Undecodable(
              ok.item().id(),
              ok.item().type(),
              location,
              "another item of the archive has the same id "
                  + ok.item().id()
                  + "; the first"
                  + " is restored",
              false);
        }
        EntryContent content = null;
        if (ok.useContent() && entry != null) {
          content =
              new EntryContent(
                  records, entry, head, sha1, plan.archive() + ": " + entry.name(), whileCurrent());
        }
        yield new ItemEntry.Decoded(ok.item(), location, content);
      }
    };
  }

  private ItemEntry broken(Broken k) {
    return new ItemEntry.Undecodable(
        0,
        null,
        plan.archive()
            + " at byte "
            + k.fileOffset()
            + " (offset "
            + k.tarOffset()
            + " of its tar stream)",
        k.reason() + "; every complete item before this point is restored, nothing after it",
        true);
  }

  private String location(TarReader.Entry e) {
    return plan.archive() + ": " + e.name();
  }

  @Override
  public void close() {
    if (records != null) {
      try {
        records.close();
      } catch (IOException e) {
        // a stream we only read
      }
    }
  }
}
