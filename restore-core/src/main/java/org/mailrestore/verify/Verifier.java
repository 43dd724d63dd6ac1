package org.mailrestore.verify;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.folders.FolderGraph;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mailstore.IdSpace;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.MailstoreReader;
import org.mailrestore.mailstore.MailstoreReader.StoredAccount;
import org.mailrestore.mailstore.MailstoreReader.StoredGrant;
import org.mailrestore.mailstore.MailstoreReader.StoredItem;
import org.mailrestore.mailstore.MailstoreReader.StoredMount;
import org.mailrestore.mailstore.VolumeStore;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * Compares a restored store with its backup: every account, folder, item, flag, tag, grant and
 * mountpoint, and every blob's bytes (by digest). It reads the backup as the restore does and
 * follows the restore's id map, in batches, so it runs in bounded memory; it also counts the
 * mailbox's items, so a duplicate cannot hide.
 *
 * <p>It expects a restore into an empty target: folders renamed or re-homed by the restore (see
 * {@link FolderGraph}) are expected under their new names.
 */
public final class Verifier {

  /** What to compare. */
  public record Options(
      PointInTime pointInTime,
      UnaryOperator<String> targetName,
      Set<String> accounts,
      boolean checkBlobs,
      boolean checkAliases,
      Set<String> knownFailures,
      int maxListed) {

    public static Options defaults() {
      return new Options(
          PointInTime.LATEST, UnaryOperator.identity(), Set.of(), true, true, Set.of(), 200);
    }

    public Options withKnownFailures(Set<String> keys) {
      return new Options(
          pointInTime, targetName, accounts, checkBlobs, checkAliases, keys, maxListed);
    }

    public Options withPointInTime(PointInTime pit) {
      return new Options(
          pit, targetName, accounts, checkBlobs, checkAliases, knownFailures, maxListed);
    }

    /** Only these accounts (addresses or backup ids). */
    public Options withAccounts(Set<String> names) {
      Set<String> lower = new HashSet<>();
      names.forEach(n -> lower.add(n.toLowerCase(Locale.ROOT)));
      return new Options(
          pointInTime, targetName, lower, checkBlobs, checkAliases, knownFailures, maxListed);
    }

    /** Where each backup account was restored to (for the new-account policy). */
    public Options withTargetName(UnaryOperator<String> names) {
      return new Options(
          pointInTime, names, accounts, checkBlobs, checkAliases, knownFailures, maxListed);
    }

    public Options withCheckAliases(boolean check) {
      return new Options(
          pointInTime, targetName, accounts, checkBlobs, check, knownFailures, maxListed);
    }

    public Options withCheckBlobs(boolean check) {
      return new Options(
          pointInTime, targetName, accounts, check, checkAliases, knownFailures, maxListed);
    }

    /** The key of a failed item in {@link #knownFailures}. */
    public static String key(String sourceAccountId, int itemId) {
      return sourceAccountId + ":" + itemId;
    }
  }

  private static final int BATCH = 1000;

  private final MailstoreReader store;
  private final MailboxStore mailboxes;
  private final VolumeStore volumes;
  private final Map<Integer, BlobVolume> volumesById;

  public Verifier(DataSource dataSource, Map<Integer, BlobVolume> volumesById) {
    this.store = new MailstoreReader(dataSource);
    this.mailboxes = new MailboxStore(dataSource);
    this.volumes = new VolumeStore(dataSource);
    this.volumesById = Map.copyOf(volumesById);
  }

  public VerifyReport verify(BackupReader backup, Options options)
      throws SQLException, IOException {
    return new Run(backup, options).run();
  }

  /** One verification: its findings and counters. */
  private final class Run {
    private final BackupReader backup;
    private final Options options;
    private final List<String> differences = new ArrayList<>();
    private long differenceCount;
    private long excused;
    private long items;
    private long blobsChecked;
    private final Set<BlobDigest> blobsSeen = new HashSet<>();
    private final Map<String, StoredAccount> targets = new HashMap<>();
    private final Map<String, IdSpace> spaces = new HashMap<>();

    Run(BackupReader backup, Options options) {
      this.backup = backup;
      this.options = options;
    }

    VerifyReport run() throws SQLException, IOException {
      List<Account> accounts = new ArrayList<>();
      for (String id : backup.accountIds()) {
        if (backup.account(id) instanceof Parsed.Ok<Account>(Account a, String location)
            && (options.accounts().isEmpty()
                || options.accounts().contains(a.name().toLowerCase(Locale.ROOT))
                || options.accounts().contains(a.id().toLowerCase(Locale.ROOT)))) {
          accounts.add(a);
          Optional<StoredAccount> target = store.account(options.targetName().apply(a.name()));
          Optional<Integer> ref = mailboxes.findSourceRef(backup.accountRef(a.id()));
          if (target.isPresent()) {
            targets.put(a.id(), target.get());
            if (ref.isPresent() && target.get().mailboxId() != null) {
              spaces.put(a.id(), new IdSpace(target.get().mailboxId(), ref.get()));
            }
          }
        }
      }
      for (Account account : accounts) {
        verifyAccount(account);
      }
      return new VerifyReport(
          accounts.size(), items, blobsChecked, differenceCount, excused, List.copyOf(differences));
    }

    private void differ(String message) {
      differenceCount++;
      if (differences.size() < options.maxListed()) {
        differences.add(message);
      }
    }

    private boolean isKnownFailure(String sourceId, int itemId) {
      if (options.knownFailures().contains(Options.key(sourceId, itemId))) {
        excused++;
        return true;
      }
      return false;
    }

    private void verifyAccount(Account account) throws SQLException, IOException {
      String name = options.targetName().apply(account.name());
      StoredAccount target = targets.get(account.id());
      if (target == null) {
        differ("account " + name + " is missing");
        return;
      }
      check(name, "domain", account.domain(), target.domain());
      check(name, "class of service", account.cos(), target.cos());
      check(name, "status", account.status(), target.status());
      check(name, "system flag", account.system(), target.system());
      check(name, "attributes", account.attributes(), Json.toMap(target.attributesJson()));
      if (options.checkAliases()) {
        check(name, "aliases", new TreeSet<>(account.aliases()), new TreeSet<>(target.aliases()));
      }
      if (target.mailboxId() == null) {
        differ("account " + name + " has no mailbox");
        return;
      }
      IdSpace space = spaces.get(account.id());
      if (space == null) {
        differ("account " + name + ": nothing of it was restored from this backup");
        return;
      }
      int mailbox = target.mailboxId();
      MappedIds mapped = new MappedIds();
      Map<Integer, Integer> folderMap = verifyContainers(account, name, space, mapped);
      Set<String> implicitTags = new HashSet<>();
      verifyContent(account, name, space, folderMap, mapped, implicitTags);
      verifyGrants(account, name, mailbox, folderMap);
      long expected = mapped.distinct() + implicitTags.size();
      long actual = store.countUserItems(mailbox);
      if (actual != expected) {
        differ(
            "account "
                + name
                + " holds "
                + actual
                + " items and tags, the backup accounts for "
                + expected);
      }
    }

    private Map<Integer, Integer> verifyContainers(
        Account account, String name, IdSpace space, MappedIds mapped)
        throws SQLException, IOException {
      int mailbox = space.mailboxId();
      List<FolderGraph.Container> folders = new ArrayList<>();
      Map<Integer, Revision> tagDefs = new HashMap<>();
      try (ItemStream stream = backup.items(account.id(), ItemType.containers())) {
        while (stream.hasNext()) {
          if (stream.next() instanceof ItemEntry.Decoded(Item item, String location)) {
            Optional<Revision> state = options.pointInTime().select(item);
            if (state.isPresent()) {
              if (item.type() == ItemType.TAG) {
                tagDefs.put(item.id(), state.get());
              } else {
                folders.add(new FolderGraph.Container(item.id(), item.type(), state.get()));
              }
            }
          }
        }
      }
      Map<Integer, Set<String>> systemNames = new HashMap<>();
      for (SystemFolder f : SystemFolder.values()) {
        systemNames
            .computeIfAbsent(f.parentId(), k -> new HashSet<>())
            .add(f.folderName().toLowerCase(Locale.ROOT));
      }
      FolderGraph.Plan plan = FolderGraph.plan(folders, systemNames, Map.of());
      List<Integer> oldIds = new ArrayList<>();
      plan.folders().forEach(f -> oldIds.add(f.container().oldId()));
      oldIds.addAll(tagDefs.keySet());
      oldIds.add(FolderGraph.RECOVERY_OLD_ID);
      Map<Integer, Integer> ids = mailboxes.mappedIds(space, oldIds);
      Map<Integer, Integer> folderMap = new HashMap<>();
      for (SystemFolder f : SystemFolder.values()) {
        folderMap.put(f.id(), f.id());
      }
      Integer recovery = ids.get(FolderGraph.RECOVERY_OLD_ID);
      if (plan.needsRecoveryFolder()) {
        if (recovery == null) {
          differ("account " + name + ": the folder " + plan.recoveryFolderName() + " is missing");
        } else {
          mapped.add(recovery);
        }
      }
      Map<Integer, StoredItem> rows = store.items(mailbox, ids.values());
      for (FolderGraph.PlannedFolder planned : plan.folders()) {
        FolderGraph.Container c = planned.container();
        Integer newId = ids.get(c.oldId());
        if (newId == null) {
          if (!isKnownFailure(account.id(), c.oldId())) {
            differ(
                "account "
                    + name
                    + ": "
                    + c.type().wireName()
                    + " "
                    + c.oldId()
                    + " \""
                    + planned.name()
                    + "\" is missing");
          }
          continue;
        }
        mapped.add(newId);
        folderMap.put(c.oldId(), newId);
        StoredItem stored = rows.get(newId);
        if (stored == null) {
          differ(
              "account "
                  + name
                  + ": "
                  + c.type().wireName()
                  + " "
                  + c.oldId()
                  + " is mapped to "
                  + newId
                  + ", which does not exist");
          continue;
        }
        ItemRow row = stored.row();
        Integer parent =
            switch (planned.parent()) {
              case FolderGraph.Parent.System(int id) -> id;
              case FolderGraph.Parent.Planned(int oldId) -> folderMap.get(oldId);
              case FolderGraph.Parent.Recovery() -> recovery;
            };
        String what = "account " + name + ": " + c.type().wireName() + " " + c.oldId();
        Revision s = c.state();
        check(what, "type", c.type().code(), row.type());
        check(what, "name", planned.name(), row.name());
        check(what, "parent", parent, row.folderId());
        check(what, "color", s.color() < 0 ? null : s.color(), row.color());
        check(what, "view", s.view(), row.view());
        check(what, "flags", Flags.toBits(s.flags()), row.flags());
        check(what, "attributes", s.attrs(), Json.toMap(row.metadata()));
        items++;
      }
      Map<Integer, String> tagNames = store.tagNames(mailbox);
      tagDefs.entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> {
            Integer newId = ids.get(e.getKey());
            if (newId == null) {
              differ("account " + name + ": tag \"" + e.getValue().name() + "\" is missing");
            } else if (!e.getValue().name().equalsIgnoreCase(tagNames.get(newId))) {
              differ(
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
              items++;
            }
          });
      verifyMounts(name, mailbox, plan, ids);
      return folderMap;
    }

    private void verifyMounts(
        String name, int mailbox, FolderGraph.Plan plan, Map<Integer, Integer> ids)
        throws SQLException {
      Map<Integer, StoredMount> mounts = null;
      for (FolderGraph.PlannedFolder planned : plan.folders()) {
        FolderGraph.Container c = planned.container();
        if (c.type() != ItemType.MOUNTPOINT || !ids.containsKey(c.oldId())) {
          continue;
        }
        if (mounts == null) {
          mounts = store.mounts(mailbox);
        }
        Revision.MountTarget target = c.state().mount();
        StoredMount mount = mounts.get(ids.get(c.oldId()));
        StoredAccount owner = targets.get(target.ownerAccountId());
        IdSpace ownerSpace = spaces.get(target.ownerAccountId());
        String what = "account " + name + ": mountpoint " + c.oldId();
        if (owner == null || ownerSpace == null) {
          if (mount != null) {
            differ(
                what
                    + " points somewhere although its owner "
                    + target.ownerAccountId()
                    + " was not restored");
          }
          continue;
        }
        if (mount == null) {
          differ(what + " does not point anywhere");
          continue;
        }
        Integer remote =
            SystemFolder.byId(target.remoteFolderId()) != null
                ? Integer.valueOf(target.remoteFolderId())
                : mailboxes
                    .mappedIds(ownerSpace, List.of(target.remoteFolderId()))
                    .get(target.remoteFolderId());
        check(what, "owner", owner.uuid(), mount.ownerUuid());
        check(what, "remote folder", remote, mount.remoteFolderId());
      }
    }

    private void verifyContent(
        Account account,
        String name,
        IdSpace space,
        Map<Integer, Integer> folderMap,
        MappedIds mapped,
        Set<String> implicitTags)
        throws SQLException, IOException {
      Set<String> definedTags = new HashSet<>();
      store
          .tagNames(space.mailboxId())
          .values()
          .forEach(t -> definedTags.add(t.toLowerCase(Locale.ROOT)));
      List<Item> batch = new ArrayList<>(BATCH);
      try (ItemStream stream = backup.items(account.id(), ItemType.contents())) {
        while (stream.hasNext()) {
          if (stream.next() instanceof ItemEntry.Decoded(Item item, String location)
              && options.pointInTime().select(item).isPresent()) {
            batch.add(item);
            if (batch.size() == BATCH) {
              verifyBatch(account, name, space, folderMap, mapped, batch);
              batch.clear();
            }
          }
        }
      }
      verifyBatch(account, name, space, folderMap, mapped, batch);
      // Tags items carry without the backup defining them are created by the restore.
      Set<String> backupTags = new HashSet<>();
      try (ItemStream stream = backup.items(account.id(), EnumSet.of(ItemType.TAG))) {
        while (stream.hasNext()) {
          if (stream.next() instanceof ItemEntry.Decoded(Item item, String location)) {
            options
                .pointInTime()
                .select(item)
                .ifPresent(s -> backupTags.add(s.name().toLowerCase(Locale.ROOT)));
          }
        }
      }
      for (String tag : definedTags) {
        if (!backupTags.contains(tag)) {
          implicitTags.add(tag);
        }
      }
    }

    private void verifyBatch(
        Account account,
        String name,
        IdSpace space,
        Map<Integer, Integer> folderMap,
        MappedIds mapped,
        List<Item> batch)
        throws SQLException, IOException {
      if (batch.isEmpty()) {
        return;
      }
      Map<Integer, Integer> ids = mailboxes.mappedIds(space, batch.stream().map(Item::id).toList());
      Map<Integer, StoredItem> rows = store.items(space.mailboxId(), ids.values());
      List<ItemRow> withBlobs = new ArrayList<>();
      for (Item item : batch) {
        Revision s = options.pointInTime().select(item).orElseThrow();
        String what = "account " + name + ": " + item.type().wireName() + " " + item.id();
        Integer newId = ids.get(item.id());
        if (newId == null) {
          if (!isKnownFailure(account.id(), item.id())) {
            differ(what + " is missing");
          }
          continue;
        }
        mapped.add(newId);
        StoredItem stored = rows.get(newId);
        if (stored == null) {
          differ(what + " is mapped to " + newId + ", which does not exist");
          continue;
        }
        ItemRow row = stored.row();
        items++;
        check(what, "type", item.type().code(), row.type());
        check(what, "folder", folderMap.get(s.folderId()), row.folderId());
        check(what, "flags", Flags.normalize(s.flags()), Flags.fromBits(row.flags()));
        check(what, "tags", lowerSorted(s.tags()), lowerSorted(stored.tags()));
        check(what, "date", s.date(), row.date());
        check(what, "size", s.size(), row.size());
        check(what, "digest", s.digest(), row.digest());
        check(what, "sender", s.sender(), row.sender());
        check(what, "subject", s.subject(), row.subject());
        check(what, "name", s.name(), row.name());
        check(what, "uuid", s.uuid(), row.uuid());
        check(what, "attributes", s.attrs(), Json.toMap(row.metadata()));
        if (row.digest() != null && options.checkBlobs()) {
          withBlobs.add(row);
        }
      }
      checkBlobs(name, withBlobs);
    }

    private void checkBlobs(String name, List<ItemRow> rows) throws SQLException, IOException {
      Map<Integer, List<ItemRow>> byVolume = new HashMap<>();
      for (ItemRow row : rows) {
        if (row.volumeId() == null) {
          differ("account " + name + ": item " + row.id() + " has a digest but no volume");
        } else if (blobsSeen.add(row.digest())) {
          byVolume.computeIfAbsent(row.volumeId(), k -> new ArrayList<>()).add(row);
        }
      }
      for (Map.Entry<Integer, List<ItemRow>> e : byVolume.entrySet()) {
        BlobVolume volume = volumesById.get(e.getKey());
        if (volume == null) {
          differ(
              "volume "
                  + e.getKey()
                  + " is not available to verify "
                  + e.getValue().size()
                  + " blobs");
          continue;
        }
        Map<BlobDigest, StoredBlob> located =
            volumes.present(e.getKey(), e.getValue().stream().map(ItemRow::digest).toList());
        for (ItemRow row : e.getValue()) {
          StoredBlob blob = located.get(row.digest());
          if (blob == null) {
            differ(
                "blob "
                    + row.digest()
                    + " (item "
                    + row.id()
                    + " of "
                    + name
                    + ") is not in volume "
                    + e.getKey());
            continue;
          }
          blobsChecked++;
          verifyBytes(volume, blob, row, name);
        }
      }
    }

    private void verifyBytes(BlobVolume volume, StoredBlob blob, ItemRow row, String name) {
      MessageDigest sha = BlobDigest.newSha256();
      long length = 0;
      byte[] buffer = new byte[1 << 16];
      try (InputStream in = volume.open(blob)) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          sha.update(buffer, 0, n);
          length += n;
        }
      } catch (IOException e) {
        differ("blob " + row.digest() + " of " + name + " cannot be read: " + e.getMessage());
        return;
      }
      BlobDigest actual = BlobDigest.of(sha.digest());
      if (!actual.equals(row.digest()) || length != row.size()) {
        differ(
            "blob "
                + row.digest()
                + " of "
                + name
                + " holds "
                + length
                + " bytes hashing to "
                + actual);
      }
    }

    private void verifyGrants(
        Account account, String name, int mailbox, Map<Integer, Integer> folderMap)
        throws SQLException {
      if (!(backup.grants(account.id())
          instanceof Parsed.Ok<List<Grant>>(List<Grant> grants, String location))) {
        differ("account " + name + ": shares cannot be read from the backup");
        return;
      }
      Set<String> expected = new TreeSet<>();
      for (Grant g : grants) {
        String grantee =
            switch (g.granteeType()) {
              case USER -> {
                StoredAccount t = targets.get(g.granteeId());
                yield t == null ? g.granteeId() : t.uuid();
              }
              case ALL_AUTHENTICATED, PUBLIC -> "";
              default -> g.granteeId();
            };
        expected.add(
            grantKey(folderMap.get(g.folderId()), g.granteeType().wireName(), grantee, g.rights()));
      }
      Set<String> actual = new TreeSet<>();
      for (StoredGrant g : store.grants(mailbox)) {
        actual.add(grantKey(g.folderId(), g.granteeType(), g.granteeId(), g.rights()));
      }
      if (!expected.equals(actual)) {
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        Set<String> extra = new TreeSet<>(actual);
        extra.removeAll(expected);
        differ("account " + name + ": grants differ; missing " + missing + ", unexpected " + extra);
      }
    }

    private static String grantKey(Integer folder, String type, String grantee, String rights) {
      return folder + "/" + type + "/" + grantee + "/" + rights;
    }

    private void check(String what, String field, Object expected, Object actual) {
      if (!Objects.equals(expected, actual)) {
        differ(what + ": " + field + " is " + actual + ", expected " + expected);
      }
    }

    private static List<String> lowerSorted(List<String> names) {
      return names.stream()
          .map(n -> n.toLowerCase(Locale.ROOT))
          .distinct()
          .sorted(Comparator.naturalOrder())
          .toList();
    }
  }

  /** The distinct restored ids of one mailbox seen so far; a bit set keeps it small. */
  private static final class MappedIds {
    private final BitSet ids = new BitSet();

    void add(int id) {
      ids.set(id);
    }

    long distinct() {
      return ids.cardinality();
    }
  }
}
