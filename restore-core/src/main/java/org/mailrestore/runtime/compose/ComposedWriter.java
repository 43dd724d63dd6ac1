package org.mailrestore.runtime.compose;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.Parent;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.Passing;

/**
 * Phase 2 of one account into composed targets: each folder is written to the part that holds its
 * view, each item to the part that carries its type, and a cluster's journal is committed once,
 * after every part wrote its share (in the transaction of the part that commits with the
 * bookkeeping, when there is one). A folder whose parent went to another part is made at the top of
 * its own part; an item whose folder went to a part that does not carry its type fails, saying so.
 */
final class ComposedWriter implements MailboxWriter {

  /** Content a part took as it passed, with the part that holds it. */
  private record PartStaged(int part, Staged staged) {}

  private final ComposedTarget target;
  private final List<MailboxWriter> writers;

  /**
   * @param writers one per part, null for a part that takes no content
   */
  ComposedWriter(ComposedTarget target, List<MailboxWriter> writers) {
    this.target = target;
    this.writers = writers;
  }

  @Override
  public Map<Integer, Set<String>> folderNamesByParent() throws SQLException, IOException {
    Map<Integer, Set<String>> names = new HashMap<>();
    for (int part = 0; part < writers.size(); part++) {
      if (writers.get(part) == null) {
        continue;
      }
      for (Map.Entry<Integer, Set<String>> e : writers.get(part).folderNamesByParent().entrySet()) {
        names
            .computeIfAbsent(PartIds.encode(part, e.getKey()), k -> new HashSet<>())
            .addAll(e.getValue());
      }
    }
    return names;
  }

  @Override
  public void writeFolders(FolderBatch batch, ClusterJournal journal)
      throws SQLException, IOException {
    Map<Integer, Integer> partOf = new HashMap<>();
    for (FolderToWrite f : batch.folders()) {
      partOf.put(f.oldId(), target.routing().folderPart(f.type(), f.state()));
    }
    List<Integer> order = writingOrder();
    for (int part : order) {
      Map<Integer, Integer> restored = new HashMap<>();
      batch
          .restored()
          .forEach((oldId, newId) -> {
            if (PartIds.part(newId) == part) {
              restored.put(oldId, PartIds.local(newId));
            }
          });
      if (part != 0) {
        restored.remove(FolderBatch.RECOVERY_OLD_ID);
      }
      List<FolderToWrite> folders = new ArrayList<>();
      for (FolderToWrite f : batch.folders()) {
        if (Integer.valueOf(part).equals(partOf.get(f.oldId()))) {
          folders.add(
              new FolderToWrite(
                  f.oldId(),
                  f.type(),
                  parentIn(part, f.parent(), partOf, restored),
                  f.name(),
                  f.state(),
                  f.location()));
        }
      }
      writers
          .get(part)
          .writeFolders(
              new FolderBatch(
                  folders, part == 0 ? batch.recoveryFolderName() : null, restored, batch.tags()),
              new PartJournal(journal, part, target.commitsWithBookkeeping(part)));
    }
    commitUnlessAPartDid(journal);
  }

  /** A folder's parent as its part sees it: the top of the part when it is elsewhere. */
  private static Parent parentIn(
      int part, Parent parent, Map<Integer, Integer> partOf, Map<Integer, Integer> restored) {
    Parent top = new Parent.System(SystemFolder.USER_ROOT.id());
    return switch (parent) {
      case Parent.System s -> s;
      case Parent.Planned(int oldId) ->
          Integer.valueOf(part).equals(partOf.get(oldId)) || restored.containsKey(oldId)
              ? parent
              : top;
      case Parent.Recovery r -> part == 0 ? r : top;
    };
  }

  @Override
  public Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException {
    int part = target.routing().itemPart(type);
    Staged staged = writers.get(part).stage(type, content, declared);
    return new Staged(staged.digest(), staged.size(), new PartStaged(part, staged));
  }

  @Override
  public void writeItems(ItemBatch batch, ClusterJournal journal) throws SQLException, IOException {
    Map<Integer, List<ItemToWrite>> byPart = new HashMap<>();
    for (ItemToWrite item : batch.items()) {
      int part = target.routing().itemPart(item.type());
      int folderPart = PartIds.part(item.folder());
      if (!PartIds.isShared(item.folder()) && folderPart != part) {
        journal.failed(
            item,
            FailureReason.TARGET_REFUSED,
            "its folder went to "
                + target.part(folderPart).describe()
                + ", which holds no "
                + item.type().wireName()
                + "s, and "
                + target.part(part).describe()
                + ", which does, has no such folder");
        continue;
      }
      Staged staged = item.staged() == null ? null : ((PartStaged) item.staged().handle()).staged();
      byPart
          .computeIfAbsent(part, k -> new ArrayList<>())
          .add(
              new ItemToWrite(
                  item.oldId(),
                  item.type(),
                  item.state(),
                  PartIds.local(item.folder()),
                  item.location(),
                  staged));
    }
    for (int part : writingOrder()) {
      List<ItemToWrite> items = byPart.getOrDefault(part, List.of());
      if (items.isEmpty() && !target.commitsWithBookkeeping(part)) {
        continue;
      }
      writers
          .get(part)
          .writeItems(
              new ItemBatch(batch.seq(), items, batch.inDoubt()),
              new PartJournal(journal, part, target.commitsWithBookkeeping(part)));
    }
    commitUnlessAPartDid(journal);
  }

  /** The parts with content, the one that commits with the bookkeeping last. */
  private List<Integer> writingOrder() {
    List<Integer> order = new ArrayList<>();
    Integer committing = null;
    for (int part = 0; part < writers.size(); part++) {
      if (writers.get(part) == null) {
        continue;
      }
      if (target.commitsWithBookkeeping(part)) {
        committing = part;
      } else {
        order.add(part);
      }
    }
    if (committing != null) {
      order.add(committing);
    }
    return order;
  }

  private void commitUnlessAPartDid(ClusterJournal journal) throws SQLException {
    if (!target.hasCommittingPart()) {
      journal.commit();
    }
  }

  @Override
  public void finish() throws SQLException, IOException {
    for (MailboxWriter writer : writers) {
      if (writer != null) {
        writer.finish();
      }
    }
  }

  @Override
  public void close() {
    for (MailboxWriter writer : writers) {
      if (writer != null) {
        writer.close();
      }
    }
  }
}
