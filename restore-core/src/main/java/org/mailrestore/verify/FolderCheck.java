package org.mailrestore.verify;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.RestoredStore.Fidelity;
import org.mailrestore.destination.RestoredStore.RestoredAccount;
import org.mailrestore.destination.RestoredStore.RestoredItem;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.restore.bookkeeping.IdSpace;
import org.mailrestore.restore.data.FolderGraph;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * An account's folders, search folders, mountpoints and tags: planned again as the restore planned
 * them, so renamed and re-homed folders are expected where the restore put them.
 */
final class FolderCheck {

  private final VerifyRun run;
  private final Account account;
  private final String name;
  private final RestoredAccount target;
  private final IdSpace space;
  private final VerifyRun.MappedIds mapped;

  FolderCheck(
      VerifyRun run,
      Account account,
      String name,
      RestoredAccount target,
      IdSpace space,
      VerifyRun.MappedIds mapped) {
    this.run = run;
    this.account = account;
    this.name = name;
    this.target = target;
    this.space = space;
    this.mapped = mapped;
  }

  /** Checks the containers; returns the map from source folder ids to target folder ids. */
  Map<Integer, Integer> run() throws SQLException, IOException {
    List<FolderGraph.Container> folders = new ArrayList<>();
    Map<Integer, Revision> tagDefs = new HashMap<>();
    try (ItemStream stream = run.source.items(account.id(), ItemType.containers())) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d) {
          Optional<Revision> state = run.options.pointInTime().select(d.item());
          if (state.isPresent()) {
            if (d.item().type() == ItemType.TAG) {
              tagDefs.put(d.item().id(), state.get());
            } else {
              folders.add(new FolderGraph.Container(d.item().id(), d.item().type(), state.get()));
            }
          }
        }
      }
    }
    Map<Integer, Set<String>> systemNames = new HashMap<>();
    for (SystemFolder f : run.store.systemFolders()) {
      systemNames
          .computeIfAbsent(f.parentId(), k -> new HashSet<>())
          .add(f.folderName().toLowerCase(Locale.ROOT));
    }
    FolderGraph.Plan plan = FolderGraph.plan(folders, systemNames, Map.of());
    List<Integer> oldIds = new ArrayList<>();
    plan.folders().forEach(f -> oldIds.add(f.container().oldId()));
    oldIds.addAll(tagDefs.keySet());
    oldIds.add(FolderBatch.RECOVERY_OLD_ID);
    Map<Integer, Integer> ids = run.idMap.mapped(space, oldIds);
    Map<Integer, Integer> folderMap = new HashMap<>();
    for (SystemFolder f : SystemFolder.values()) {
      folderMap.put(f.id(), f.id());
    }
    Integer recovery = ids.get(FolderBatch.RECOVERY_OLD_ID);
    if (plan.needsRecoveryFolder()) {
      if (recovery == null) {
        run.differ("account " + name + ": the folder " + plan.recoveryFolderName() + " is missing");
      } else {
        mapped.add(recovery);
      }
    }
    Map<Integer, RestoredItem> held = run.store.items(target.ref(), ids.values());
    boolean details = run.fidelity.contains(Fidelity.FOLDER_DETAILS);
    for (FolderGraph.PlannedFolder planned : plan.folders()) {
      FolderGraph.Container c = planned.container();
      if ((c.type() == ItemType.MOUNTPOINT && !run.fidelity.contains(Fidelity.MOUNTPOINTS))
          || (c.type() == ItemType.SEARCH_FOLDER
              && !run.fidelity.contains(Fidelity.SEARCH_FOLDERS))) {
        // A target without them reported them as not carried, and made what was under them
        // one level up: where their own parent is.
        Integer up = expectedParent(planned.parent(), folderMap, recovery);
        if (up != null) {
          folderMap.put(c.oldId(), up);
        }
        continue;
      }
      Integer newId = ids.get(c.oldId());
      String what = "account " + name + ": " + c.type().wireName() + " " + c.oldId();
      if (newId == null) {
        if (!run.isKnownFailure(account.id(), c.oldId())) {
          run.differ(what + " \"" + planned.name() + "\" is missing");
        }
        continue;
      }
      mapped.add(newId);
      folderMap.put(c.oldId(), newId);
      RestoredItem stored = held.get(newId);
      if (stored == null) {
        run.differ(what + " is mapped to " + newId + ", which does not exist");
        continue;
      }
      Revision actual = stored.item().revisions().get(0);
      Integer parent = expectedParent(planned.parent(), folderMap, recovery);
      Revision s = c.state();
      run.check(what, "type", c.type(), stored.item().type());
      run.check(what, "name", planned.name(), actual.name());
      run.check(what, "parent", parent, actual.folderId());
      if (details) {
        run.check(what, "color", s.color(), actual.color());
        run.check(what, "view", s.view(), actual.view());
        run.check(what, "flags", Flags.toBits(s.flags()), Flags.toBits(actual.flags()));
        run.check(what, "attributes", s.attrs(), actual.attrs());
      }
      run.items++;
    }
    if (run.fidelity.contains(Fidelity.TAGS)) {
      checkTags(tagDefs, ids);
    }
    if (run.fidelity.contains(Fidelity.MOUNTPOINTS)) {
      checkMounts(plan, ids);
    }
    return folderMap;
  }

  private void checkTags(Map<Integer, Revision> tagDefs, Map<Integer, Integer> ids)
      throws SQLException, IOException {
    Map<Integer, String> tagNames = run.store.tags(target.ref());
    for (Map.Entry<Integer, Revision> e :
        tagDefs.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
      Integer newId = ids.get(e.getKey());
      if (newId == null) {
        run.differ("account " + name + ": tag \"" + e.getValue().name() + "\" is missing");
      } else if (!e.getValue().name().equalsIgnoreCase(tagNames.get(newId))) {
        run.differ(
            "account "
                + name
                + ": tag "
                + e.getKey()
                + " is named \""
                + tagNames.get(newId)
                + "\", not \""
                + e.getValue().name()
                + "\"");
      } else {
        mapped.add(newId);
        run.items++;
      }
    }
  }

  private void checkMounts(FolderGraph.Plan plan, Map<Integer, Integer> ids)
      throws SQLException, IOException {
    Map<Integer, Revision.MountTarget> mounts = null;
    for (FolderGraph.PlannedFolder planned : plan.folders()) {
      FolderGraph.Container c = planned.container();
      if (c.type() != ItemType.MOUNTPOINT || !ids.containsKey(c.oldId())) {
        continue;
      }
      if (mounts == null) {
        mounts = run.store.mounts(target.ref());
      }
      Revision.MountTarget expected = c.state().mount();
      Revision.MountTarget mount = mounts.get(ids.get(c.oldId()));
      RestoredAccount owner = run.targets.get(expected.ownerAccountId());
      IdSpace ownerSpace = run.spaces.get(expected.ownerAccountId());
      String what = "account " + name + ": mountpoint " + c.oldId();
      if (owner == null || ownerSpace == null) {
        if (mount != null) {
          run.differ(
              what
                  + " points somewhere although its owner "
                  + expected.ownerAccountId()
                  + " was not restored");
        }
        continue;
      }
      if (mount == null) {
        run.differ(what + " does not point anywhere");
        continue;
      }
      Integer remote =
          SystemFolder.byId(expected.remoteFolderId()) != null
              ? Integer.valueOf(expected.remoteFolderId())
              : run.idMap
                  .mapped(ownerSpace, List.of(expected.remoteFolderId()))
                  .get(expected.remoteFolderId());
      run.check(what, "owner", owner.ref().id(), mount.ownerAccountId());
      run.check(what, "remote folder", remote, mount.remoteFolderId());
    }
  }

  /** Where a planned folder's parent is in the target, as the restore planned it. */
  private static Integer expectedParent(
      FolderBatch.Parent parent, Map<Integer, Integer> folderMap, Integer recovery) {
    return switch (parent) {
      case FolderBatch.Parent.System(int id) -> id;
      case FolderBatch.Parent.Planned(int oldId) -> folderMap.get(oldId);
      case FolderBatch.Parent.Recovery() -> recovery;
    };
  }
}
