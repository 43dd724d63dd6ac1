package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.dav.DavClient.Answer;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.dav.DavRecords.ResourceRow;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.WholeContent;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.Passing;
import org.mailrestore.sql.Sql;

/**
 * Phase 2 of one account on a DAV server. Folders become collections under the user's home (flat:
 * CardDAV and CalDAV homes hold no nesting; the hierarchy stays in the records), tags are recorded
 * by name, and each contact, appointment or task becomes one resource, created only where none is.
 * A resource's name comes from its UID, which comes from the source item, so a cluster written
 * again (a retry, a resume after a crash) meets what it wrote as {@code 412}, reads it, and records
 * it instead of writing it twice.
 */
final class DavWriter implements MailboxWriter {

  /** A failure of one item, with the reason for the report. */
  private record Failure(FailureReason reason, String detail) {}

  private final DavServer server;
  private final DavRecords records;
  private final ProvisionedAccount account;
  private final WriteContext context;
  private final DavCollections collections;

  DavWriter(
      DavServer server, DavRecords records, ProvisionedAccount account, WriteContext context) {
    this.server = server;
    this.records = records;
    this.account = account;
    this.context = context;
    this.collections = new DavCollections(server, records, account);
  }

  @Override
  public Map<Integer, Set<String>> folderNamesByParent() throws SQLException {
    return collections.namesByParent();
  }

  @Override
  public void writeFolders(FolderBatch batch, ClusterJournal journal)
      throws SQLException, IOException {
    Map<Integer, CollectionRow> made = collections.make(batch);
    Map<Integer, String> tagsHeld = records.tags(account.key());
    Map<TagToWrite, Integer> sameAs = new HashMap<>();
    List<TagToWrite> newTags = new ArrayList<>();
    for (TagToWrite tag : batch.tags()) {
      Integer existing = null;
      for (Map.Entry<Integer, String> t : tagsHeld.entrySet()) {
        if (t.getValue().equalsIgnoreCase(tag.name())) {
          existing = t.getKey();
        }
      }
      if (existing != null) {
        sameAs.put(tag, existing);
      } else {
        newTags.add(tag);
      }
    }
    // A collection recorded already at the same place was made by an earlier attempt of this
    // cluster whose journal was lost (a composition commits the target's records first): it keeps
    // its id.
    Map<String, Integer> recorded = collections.idsByHref();
    Sql.inTransaction(
        records.dataSource(),
        c -> {
          int fresh = 0;
          for (CollectionRow r : made.values()) {
            fresh += recorded.containsKey(r.href()) ? 0 : 1;
          }
          int n = fresh + newTags.size();
          int next = n == 0 ? 0 : DavRecords.allocate(c, account.key(), n);
          Map<Integer, Integer> ids = new HashMap<>();
          for (Map.Entry<Integer, CollectionRow> e : made.entrySet()) {
            Integer before = recorded.get(e.getValue().href());
            ids.put(e.getKey(), before != null ? before : next++);
          }
          for (Map.Entry<Integer, CollectionRow> e : made.entrySet()) {
            CollectionRow r = e.getValue();
            int parent = r.parentId() < 0 ? ids.get(-r.parentId() - 1) : r.parentId();
            DavRecords.addCollection(
                c,
                account.key(),
                new CollectionRow(
                    ids.get(e.getKey()),
                    r.href(),
                    r.name(),
                    parent,
                    r.kind(),
                    r.view(),
                    r.color()));
          }
          for (FolderToWrite f : batch.folders()) {
            if (ids.containsKey(f.oldId())) {
              journal.restored(f, ids.get(f.oldId()));
            }
          }
          if (batch.recoveryFolderName() != null) {
            journal.mapped(FolderBatch.RECOVERY_OLD_ID, ids.get(FolderBatch.RECOVERY_OLD_ID));
          }
          for (TagToWrite t : newTags) {
            int id = next++;
            DavRecords.addTag(c, account.key(), id, t.name());
            journal.restored(t, id);
          }
          sameAs.forEach(journal::sameAs);
          journal.writeIn(c);
          return null;
        });
    collections.forget();
  }

  @Override
  public Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException {
    return WholeContent.stage(content, declared);
  }

  @Override
  public void writeItems(ItemBatch batch, ClusterJournal journal) throws SQLException, IOException {
    Map<ItemToWrite, Failure> failed = new LinkedHashMap<>();
    Map<ItemToWrite, ResourceRow> placed = new LinkedHashMap<>();
    // A resource is named by its UID: one placed by this cluster for another item, or recorded
    // for another item, is that item's (a collection holds one resource per UID).
    java.util.Set<String> taken = new java.util.HashSet<>();
    for (ItemToWrite item : batch.items()) {
      try {
        ResourceRow row = write(item, taken);
        placed.put(item, row);
        taken.add(row.href());
      } catch (ItemFailed f) {
        failed.put(item, new Failure(f.reason, f.getMessage()));
      }
    }
    Sql.inTransaction(
        records.dataSource(),
        c -> {
          long fresh = placed.values().stream().filter(r -> r.id() == 0).count();
          if (!placed.isEmpty()) {
            int next = fresh == 0 ? 0 : DavRecords.allocate(c, account.key(), (int) fresh);
            List<ResourceRow> rows = new ArrayList<>(placed.size());
            for (Map.Entry<ItemToWrite, ResourceRow> e : placed.entrySet()) {
              ResourceRow r = e.getValue();
              if (r.id() != 0) {
                journal.restored(e.getKey(), r.id()); // recorded by an earlier attempt
                continue;
              }
              int id = next++;
              rows.add(
                  new ResourceRow(
                      id,
                      r.sourceId(),
                      r.collectionId(),
                      r.type(),
                      r.href(),
                      r.uid(),
                      r.sourceDigest(),
                      r.sourceSize(),
                      r.writtenSha256()));
              journal.restored(e.getKey(), id);
            }
            DavRecords.addResources(c, account.key(), rows);
          }
          failed.forEach((item, f) -> journal.failed(item, f.reason(), f.detail()));
          journal.writeIn(c);
          return null;
        });
  }

  /** One item that cannot be written, for the reason given; the cluster goes on. */
  private static final class ItemFailed extends Exception {
    private static final long serialVersionUID = 1;
    private final transient FailureReason reason;

    ItemFailed(FailureReason reason, String detail) {
      super(detail);
      this.reason = reason;
    }
  }

  /** Writes one item's resource, or finds it written; its row without an id yet. */
  private ResourceRow write(ItemToWrite item, java.util.Set<String> taken)
      throws ItemFailed, IOException, SQLException {
    if (!DavTarget.CARRIED.contains(item.type())) {
      throw new ItemFailed(
          FailureReason.NOT_CARRIED,
          "a DAV server holds contacts, appointments and tasks, not a " + item.type().wireName());
    }
    CollectionRow collection = collections.of(item.folder());
    if (collection == null) {
      throw new ItemFailed(
          FailureReason.FOLDER_MISSING,
          "its folder " + item.folder() + " was not created on the server");
    }
    CollectionKind wanted = DavCollections.kindFor(item.type());
    if (collection.kind() != wanted) {
      throw new ItemFailed(
          FailureReason.NOT_CARRIED,
          "its folder \""
              + collection.name()
              + "\" is not "
              + (collection.kind() == CollectionKind.NONE
                  ? "a DAV collection"
                  : "a collection of " + item.type().wireName() + "s")
              + " on the DAV server, where a "
              + item.type().wireName()
              + " can live only in "
              + DavCollections.describe(wanted));
    }
    DavResource resource = resource(item);
    String href = collection.href() + resource.name();
    if (taken.contains(href)) {
      throw duplicate(resource, collection);
    }
    int attendees = item.type() == ItemType.CONTACT ? 0 : resource.attendees();
    String refusal = attendees == 0 ? null : server.meetingRefusal(attendees);
    if (refusal != null) {
      throw new ItemFailed(FailureReason.TARGET_REFUSED, refusal);
    }
    URI uri = server.homes().at(account.name(), collection.kind(), href);
    Answer a = server.client().put(uri, resource.text(), resource.contentType(), true);
    if (a.status() == 412) {
      // Something is there: a resource recorded is on the server, so the records are asked only
      // now, not for every item.
      java.util.Optional<ResourceRow> recorded = records.resourceAt(account.key(), href);
      if (recorded.isPresent() && recorded.get().sourceId() == item.oldId()) {
        // An earlier attempt of this cluster wrote and recorded it; only the journal was lost.
        return recorded.get();
      }
      if (recorded.isPresent()) {
        throw duplicate(resource, collection);
      }
      sameResource(uri, resource);
    } else if (!a.ok()) {
      throw new ItemFailed(
          FailureReason.TARGET_REFUSED,
          "the DAV server refused it (" + a.status() + "): " + DavClient.brief(a.body()));
    }
    return new ResourceRow(
        0,
        item.oldId(),
        collection.id(),
        item.type().code(),
        href,
        resource.uid(),
        item.type() == ItemType.CONTACT ? null : contentDigest(item),
        item.type() == ItemType.CONTACT ? 0 : contentSize(item),
        resource.canonicalSha256());
  }

  /** A second item of a UID the collection holds: a collection holds one resource per UID. */
  private static ItemFailed duplicate(DavResource resource, CollectionRow collection) {
    return new ItemFailed(
        FailureReason.TARGET_REFUSED,
        "another item of the UID "
            + resource.uid()
            + " is in \""
            + collection.name()
            + "\" already: a DAV collection holds one resource per UID");
  }

  /**
   * A resource of this name is there already: written by an earlier attempt of this cluster (or an
   * earlier restore of the same item), when it holds the same UID; another item's otherwise.
   */
  private void sameResource(URI uri, DavResource resource) throws ItemFailed, IOException {
    Answer held = server.client().get(uri);
    if (held.ok() && resource.uid().equals(DavResource.uidOf(resource.type(), held.body()))) {
      return;
    }
    throw new ItemFailed(
        FailureReason.TARGET_REFUSED,
        "the DAV server holds another resource at "
            + uri
            + " (answered "
            + held.status()
            + "): it was left as it is");
  }

  private DavResource resource(ItemToWrite item) throws ItemFailed, IOException {
    if (item.type() == ItemType.CONTACT) {
      return DavResource.contact(contactUid(item), item.state().attrs(), item.state().tags());
    }
    if (!item.hasContent()) {
      try {
        return DavResource.calendar(
            item.type(),
            CalendarObject.withoutContent(
                item.state().attrs(), item.type(), contactUid(item), item.state().date()),
            item.state().tags());
      } catch (CalendarObject.Refused e) {
        throw new ItemFailed(FailureReason.INVALID_ITEM, e.getMessage());
      }
    }
    byte[] bytes;
    try {
      bytes = WholeContent.of(item, context);
    } catch (BlobException e) {
      throw new ItemFailed(FailureReason.of(e.reason()), e.getMessage());
    }
    try {
      String text = CalendarObject.calendarText(bytes);
      return DavResource.calendar(
          item.type(),
          CalendarObject.resource(text, item.type(), contactUid(item)),
          item.state().tags());
    } catch (CalendarObject.Refused e) {
      throw new ItemFailed(FailureReason.INVALID_ITEM, e.getMessage());
    }
  }

  private String contactUid(ItemToWrite item) {
    return DavResource.itemUid(account.name(), item.oldId(), item.state());
  }

  private static BlobDigest contentDigest(ItemToWrite item) {
    return item.staged() != null ? item.staged().digest() : item.state().digest();
  }

  private static long contentSize(ItemToWrite item) {
    return item.staged() != null ? item.staged().size() : item.state().size();
  }

  @Override
  public void finish() {}
}
