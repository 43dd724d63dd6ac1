package org.mailrestore.mailstore;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mailstore.MailboxStore.TagLink;
import org.mailrestore.mailstore.MailboxStore.TagRow;
import org.mailrestore.source.Passing;

/**
 * Phase 2 of one mailbox: ids handed out from past every id it holds, rows written in batches with
 * the engine's journal in the same transaction, blobs copied first ({@link BlobTransfer}).
 */
final class MailstoreWriter implements MailboxWriter {

  private final MailboxStore mailboxes;
  private final int mailbox;
  private final int volumeId;
  private final IdAllocator ids;
  private final TagRegistry tags;
  private final PassingContent passing;
  private final BlobTransfer transfer;

  MailstoreWriter(
      DataSource dataSource,
      ProvisionedAccount account,
      BlobVolume volume,
      int volumeId,
      WriteContext context,
      WriteBehind behind,
      RecordedDigests recorded,
      WritesInFlight flights)
      throws SQLException {
    this.mailboxes = new MailboxStore(dataSource);
    this.mailbox = account.key();
    this.volumeId = volumeId;
    this.ids = new IdAllocator(mailboxes.nextFreeItemId(mailbox));
    this.tags = new TagRegistry(mailboxes, mailbox, ids);
    WritableVolume target =
        new WritableVolume(volume, volumeId, new VolumeStore(dataSource), recorded, flights);
    this.passing = new PassingContent(target, context, behind);
    this.transfer = new BlobTransfer(target, context, passing);
  }

  @Override
  public Map<Integer, Set<String>> folderNamesByParent() throws SQLException {
    return mailboxes.folderNamesByParent(mailbox);
  }

  @Override
  public void writeFolders(FolderBatch batch, ClusterJournal journal) throws SQLException {
    List<ItemRow> rows = new ArrayList<>();
    List<TagRow> tagRows = new ArrayList<>();
    Map<Integer, Integer> folders = new HashMap<>(batch.restored());
    if (batch.recoveryFolderName() != null) {
      int id = ids.next();
      long now = System.currentTimeMillis();
      rows.add(
          ItemRow.of(
              id,
              ItemType.FOLDER,
              SystemFolder.USER_ROOT.id(),
              batch.recoveryFolderName(),
              Revision.builder(1, now).date(now).view("message").build(),
              null));
      journal.mapped(FolderBatch.RECOVERY_OLD_ID, id);
      folders.put(FolderBatch.RECOVERY_OLD_ID, id);
    }
    Integer recovery = folders.get(FolderBatch.RECOVERY_OLD_ID);
    for (FolderToWrite f : batch.folders()) {
      int parent =
          switch (f.parent()) {
            case FolderBatch.Parent.System(int id) -> id;
            case FolderBatch.Parent.Planned(int oldId) -> known(folders.get(oldId), oldId);
            case FolderBatch.Parent.Recovery() -> known(recovery, FolderBatch.RECOVERY_OLD_ID);
          };
      int id = ids.next();
      folders.put(f.oldId(), id);
      rows.add(ItemRow.of(id, f.type(), parent, f.name(), f.state(), null));
      journal.restored(f, id);
    }
    // The registry learns the new tags only once they are committed: a retried cluster must not
    // find the tags of an attempt that rolled back.
    Map<String, Integer> created = new LinkedHashMap<>();
    for (TagToWrite t : batch.tags()) {
      Integer same = tags.find(t.name());
      if (same == null) {
        same = created.get(TagRegistry.key(t.name()));
      }
      if (same != null) {
        journal.sameAs(t, same);
        continue;
      }
      int id = ids.next();
      created.put(TagRegistry.key(t.name()), id);
      tagRows.add(new TagRow(id, t.name(), t.color() < 0 ? null : t.color()));
      journal.restored(t, id);
    }
    mailboxes.write(mailbox, rows, tagRows, List.of(), journal);
    for (TagRow t : tagRows) {
      tags.put(t.name(), t.id());
    }
  }

  @Override
  public Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException {
    return passing.stage(content, declared);
  }

  @Override
  public void writeItems(ItemBatch batch, ClusterJournal journal) throws SQLException {
    Map<ItemToWrite, StoredBlob> blobs = transfer.transfer(batch.items(), journal);
    List<ItemRow> rows = new ArrayList<>(batch.items().size());
    List<TagLink> links = new ArrayList<>();
    for (ItemToWrite item : batch.items()) {
      StoredBlob blob = blobs.get(item);
      if (item.hasContent() && blob == null) {
        continue; // failed in the transfer, and told the journal why
      }
      int id = ids.next();
      Revision s = item.state();
      rows.add(
          ItemRow.of(id, item.type(), item.folder(), s.name(), s, blob == null ? null : volumeId));
      for (String tag : distinctTags(s.tags())) {
        links.add(new TagLink(id, tags.idFor(tag)));
      }
      journal.restored(item, id);
    }
    mailboxes.write(mailbox, rows, List.of(), links, journal);
  }

  private static List<String> distinctTags(List<String> names) {
    if (names.size() < 2) {
      return names;
    }
    Map<String, String> byKey = new LinkedHashMap<>();
    for (String n : names) {
      byKey.putIfAbsent(TagRegistry.key(n), n);
    }
    return List.copyOf(byKey.values());
  }

  @Override
  public void finish() throws SQLException {
    mailboxes.raiseItemIdCheckpoint(mailbox, ids.highest());
  }

  @Override
  public void close() {
    passing.settle();
  }

  /**
   * A parent's id, written before its children (the engine plans parents first): a missing one is a
   * fault of ours, said as such rather than as a NullPointerException.
   */
  private static int known(Integer id, int oldId) {
    if (id == null) {
      throw new IllegalStateException("folder " + oldId + " is written after its children");
    }
    return id;
  }
}
