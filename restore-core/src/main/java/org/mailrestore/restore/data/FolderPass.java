package org.mailrestore.restore.data;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.bookkeeping.FailureRow;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.TargetFailure;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * The first pass over an account's items: its folder-like items and tags (few), read whole, planned
 * parents first with {@link FolderGraph} (orphans, cycles and name clashes repaired and reported),
 * and written as cluster 0. A resumed account whose cluster 0 is committed reads the folder map
 * back from the id map instead.
 */
final class FolderPass {

  /**
   * Source folder ids and the target folders they were restored as (system folders as they are).
   */
  static final class FolderMap {
    private final Map<Integer, Integer> ids = new HashMap<>();

    FolderMap() {
      for (SystemFolder f : SystemFolder.values()) {
        ids.put(f.id(), f.id());
      }
    }

    @Nullable Integer get(int oldId) {
      return ids.get(oldId);
    }

    void put(int oldId, int newId) {
      ids.put(oldId, newId);
    }

    private @Nullable Set<Integer> contentFolders; // null: every folder's content is restored

    /** Whether the content of this folder (its id in the source) is restored. */
    boolean holdsContentOf(int oldFolderId) {
      return contentFolders == null || contentFolders.contains(oldFolderId);
    }
  }

  private record Containers(
      List<FolderGraph.Container> folders,
      Map<Integer, String> locations,
      List<TagToWrite> tags,
      List<FailureRow> failures) {}

  private final OperationRun run;
  private final Records records;
  private final AccountProgress account;
  private final MailboxWriter writer;
  private final ClusterCommit commit;
  private final String sourceId;

  FolderPass(
      OperationRun run,
      Records records,
      AccountProgress account,
      MailboxWriter writer,
      ClusterCommit commit) {
    this.run = run;
    this.records = records;
    this.account = account;
    this.writer = writer;
    this.commit = commit;
    this.sourceId = account.sourceAccountId();
  }

  FolderMap run() throws IOException, SQLException {
    Containers containers = readContainers();
    FolderMap map = new FolderMap();
    if (!run.request().selection().folders().isEmpty()) {
      map.contentFolders =
          FolderScope.of(containers.folders(), run.request().selection().folders());
    }
    if (!commit.isCommitted(0)) {
      // Folders and tags count against the pace too (a cancel while waiting is seen later).
      var unused =
          run.throttle()
              .acquire(containers.folders().size() + containers.tags().size(), 0, run.cancel());
    }
    if (commit.isCommitted(0)) {
      Map<Integer, Integer> restored = restored(containers);
      for (FolderGraph.Container f : containers.folders()) {
        Integer newId = restored.get(f.oldId());
        if (newId != null) {
          map.put(f.oldId(), newId);
        }
      }
    } else {
      write(containers, map);
    }
    return map;
  }

  private Containers readContainers() throws IOException {
    List<FolderGraph.Container> folders = new ArrayList<>();
    Map<Integer, String> locations = new HashMap<>();
    List<TagToWrite> tags = new ArrayList<>();
    List<FailureRow> failures = new ArrayList<>();
    try (ItemStream stream = run.source().items(sourceId, ItemType.containers())) {
      while (stream.hasNext()) {
        switch (stream.next()) {
          case ItemEntry.Decoded d -> {
            Optional<Revision> state = run.pointInTime().select(d.item());
            if (state.isEmpty()) {
              continue;
            }
            if (d.item().type() == ItemType.TAG) {
              tags.add(
                  new TagToWrite(
                      d.item().id(), state.get().name(), state.get().color(), d.location()));
            } else {
              folders.add(new FolderGraph.Container(d.item().id(), d.item().type(), state.get()));
              locations.put(d.item().id(), d.location());
            }
          }
          case ItemEntry.Undecodable u -> {
            // Undecodable records of unknown type are reported by the content pass.
            if (u.type() != null && u.type().isContainer()) {
              failures.add(
                  records.failure(
                      Phase.DATA, u.failure(), sourceId, u.itemId(), u.location(), u.reason()));
            }
          }
        }
      }
    }
    tags.sort(Comparator.comparingInt(TagToWrite::oldId));
    return new Containers(folders, locations, tags, failures);
  }

  /** The containers an earlier run restored, by the id map. */
  private Map<Integer, Integer> restored(Containers c) throws SQLException {
    Set<Integer> ids = new HashSet<>();
    c.folders().forEach(f -> ids.add(f.oldId()));
    c.tags().forEach(t -> ids.add(t.oldId()));
    ids.add(FolderBatch.RECOVERY_OLD_ID);
    return records
        .db()
        .call(
            "reading the folder map",
            () -> records.books().idMap().mapped(account.provisionedIdSpace(), ids));
  }

  private void write(Containers c, FolderMap map) throws SQLException {
    Map<Integer, Integer> restored = account.fresh() ? Map.of() : restored(c);
    Map<Integer, Set<String>> existing = TargetFailure.call(writer::folderNamesByParent);
    FolderGraph.Plan plan = FolderGraph.plan(c.folders(), existing, restored);
    List<FolderToWrite> folders = new ArrayList<>();
    long skipped = 0;
    for (FolderGraph.PlannedFolder planned : plan.folders()) {
      FolderGraph.Container folder = planned.container();
      if (planned.alreadyRestored()) {
        Integer restoredAs = restored.get(folder.oldId());
        if (restoredAs == null) { // the plan said restored: a fault of ours, not of the source
          throw new IllegalStateException("folder " + folder.oldId() + " is not in the id map");
        }
        map.put(folder.oldId(), restoredAs);
        skipped++;
        continue;
      }
      folders.add(
          new FolderToWrite(
              folder.oldId(),
              folder.type(),
              planned.parent(),
              planned.name(),
              folder.state(),
              c.locations().getOrDefault(folder.oldId(), "")));
    }
    List<TagToWrite> tags = new ArrayList<>();
    for (TagToWrite tag : c.tags()) {
      if (restored.containsKey(tag.oldId())) {
        skipped++;
      } else {
        tags.add(tag);
      }
    }
    List<FailureRow> failures = new ArrayList<>(c.failures());
    for (FolderGraph.Issue issue : plan.issues()) {
      FailureReason reason =
          switch (issue.kind()) {
            case ORPHAN -> FailureReason.ORPHAN_FOLDER;
            case CYCLE -> FailureReason.FOLDER_CYCLE;
            case DUPLICATE_NAME -> FailureReason.DUPLICATE_NAME;
          };
      failures.add(
          records.failure(
              Phase.DATA,
              reason,
              sourceId,
              issue.oldId(),
              c.locations().getOrDefault(issue.oldId(), ""),
              issue.detail()));
    }
    String recovery =
        plan.needsRecoveryFolder() && !restored.containsKey(FolderBatch.RECOVERY_OLD_ID)
            ? plan.recoveryFolderName()
            : null;
    records.metrics().items("skipped", ItemType.FOLDER, skipped);
    var record =
        commit.folders(
            new FolderBatch(folders, recovery, restored, tags),
            commit.header(0, skipped, c.failures().size(), failures));
    Map<Integer, Integer> written = record.mappings();
    for (FolderToWrite f : folders) {
      Integer newId = written.get(f.oldId());
      if (newId != null) {
        map.put(f.oldId(), newId);
      }
    }
  }
}
