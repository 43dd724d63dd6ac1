package org.mailrestore.verify;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.RestoredStore.Fidelity;
import org.mailrestore.destination.RestoredStore.RestoredAccount;
import org.mailrestore.destination.RestoredStore.RestoredItem;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.restore.bookkeeping.IdSpace;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * An account's content items, a batch at a time: each mapped item's fields as far as the target
 * keeps them, and each distinct content's bytes, hashed again.
 */
final class ContentCheck {

  private static final int BATCH = 1000;

  private final VerifyRun run;
  private final Account account;
  private final String name;
  private final RestoredAccount target;
  private final IdSpace space;
  private final Map<Integer, Integer> folderMap;
  private final VerifyRun.MappedIds mapped;
  private final Map<Integer, BlobDigest> passed = new HashMap<>();

  ContentCheck(
      VerifyRun run,
      Account account,
      String name,
      RestoredAccount target,
      IdSpace space,
      Map<Integer, Integer> folderMap,
      VerifyRun.MappedIds mapped) {
    this.run = run;
    this.account = account;
    this.name = name;
    this.target = target;
    this.space = space;
    this.folderMap = folderMap;
    this.mapped = mapped;
  }

  /**
   * Checks the content; returns the tags (lower case) the target holds that the source never
   * defined: the restore creates them for the items that carry them.
   */
  Set<String> run() throws SQLException, IOException {
    Set<String> definedTags = new HashSet<>();
    if (run.fidelity.contains(Fidelity.TAGS)) {
      run.store.tags(target.ref()).values().forEach(t -> definedTags.add(lower(t)));
    }
    List<Item> batch = new ArrayList<>(BATCH);
    List<Item> read = new ArrayList<>(BATCH);
    try (ItemStream stream = run.source.items(account.id(), ItemType.contents())) {
      while (stream.hasNext()) {
        if (!(stream.next() instanceof ItemEntry.Decoded d)) {
          continue;
        }
        read.add(d.item());
        if (run.options.pointInTime().select(d.item()).isPresent()
            && run.store.holds(d.item().type())) {
          batch.add(d.item());
          hashPassing(d);
          if (batch.size() == BATCH) {
            verifyBatch(batch);
            batch.clear();
            passed.clear();
          }
        }
        if (read.size() >= BATCH) {
          // A verify opens no source blob (it compares digests): the source may let them go.
          run.source.doneWithItems(account.id(), read);
          read = new ArrayList<>(BATCH);
        }
      }
    }
    verifyBatch(batch);
    run.source.doneWithItems(account.id(), read);
    Set<String> backupTags = new HashSet<>();
    try (ItemStream stream = run.source.items(account.id(), EnumSet.of(ItemType.TAG))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d) {
          run.options
              .pointInTime()
              .select(d.item())
              .ifPresent(s -> backupTags.add(lower(s.name())));
        }
      }
    }
    Set<String> implicit = new HashSet<>();
    for (String tag : definedTags) {
      if (!backupTags.contains(tag)) {
        implicit.add(tag);
      }
    }
    return implicit;
  }

  /**
   * Content that passes in the source's stream (an archive) without a declared digest is hashed
   * now, before the stream moves on: that digest is what the restore stored.
   */
  private void hashPassing(ItemEntry.Decoded d) {
    Revision s = run.options.pointInTime().select(d.item()).orElseThrow();
    if (d.passing() == null || s.digest() != null || !d.item().type().hasBlob()) {
      return;
    }
    MessageDigest sha = BlobDigest.newSha256();
    try (InputStream in = d.passing().open()) {
      byte[] buffer = new byte[1 << 16];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        sha.update(buffer, 0, n);
      }
      passed.put(d.item().id(), BlobDigest.of(sha.digest()));
    } catch (IOException e) {
      passed.put(d.item().id(), null); // the restore could not read it either: a known failure
    }
  }

  private void verifyBatch(List<Item> batch) throws SQLException, IOException {
    if (batch.isEmpty()) {
      return;
    }
    Map<Integer, Integer> ids = run.idMap.mapped(space, batch.stream().map(Item::id).toList());
    Map<Integer, RestoredItem> held = run.store.items(target.ref(), ids.values());
    for (Item item : batch) {
      Revision s = run.options.pointInTime().select(item).orElseThrow();
      String what = "account " + name + ": " + item.type().wireName() + " " + item.id();
      Integer newId = ids.get(item.id());
      if (newId == null) {
        if (!run.isKnownFailure(account.id(), item.id())) {
          run.differ(what + " is missing");
        }
        continue;
      }
      mapped.add(newId);
      RestoredItem stored = held.get(newId);
      if (stored == null) {
        run.differ(what + " is mapped to " + newId + ", which does not exist");
        continue;
      }
      Revision actual = stored.item().revisions().get(0);
      s = run.store.expected(item.type(), s);
      Set<Fidelity> keeps = run.store.fidelity(item.type());
      run.items++;
      run.check(what, "type", item.type(), stored.item().type());
      run.check(what, "folder", folderMap.get(s.folderId()), actual.folderId());
      int kept = run.store.flagsKept();
      run.check(
          what,
          "flags",
          Flags.fromBits(Flags.toBits(s.flags()) & kept),
          Flags.fromBits(Flags.toBits(actual.flags()) & kept));
      if (keeps.contains(Fidelity.TAGS)) {
        run.check(what, "tags", lowerSorted(s.tags()), lowerSorted(actual.tags()));
      }
      if (run.store.keepsDate(s.date())) {
        long resolution = run.store.dateResolutionMillis();
        run.check(what, "date", s.date() / resolution, actual.date() / resolution);
      }
      run.check(what, "size", s.size(), actual.size());
      run.check(
          what, "digest", s.digest() != null ? s.digest() : passed.get(item.id()), actual.digest());
      if (keeps.contains(Fidelity.ITEM_DETAILS)) {
        run.check(what, "sender", s.sender(), actual.sender());
        run.check(what, "subject", s.subject(), actual.subject());
        run.check(what, "name", s.name(), actual.name());
        run.check(what, "uuid", s.uuid(), actual.uuid());
        run.check(what, "attributes", s.attrs(), actual.attrs());
      }
      if (actual.digest() != null
          && run.options.checkBlobs()
          && run.store.keepsBytes(item.type())) {
        checkBytes(newId, actual, stored.content());
      }
    }
  }

  private void checkBytes(int newId, Revision actual, RestoredStore.Content content) {
    if (!run.blobsSeen.add(actual.digest())) {
      return; // every distinct content is read once
    }
    if (content == null) {
      run.differ("account " + name + ": item " + newId + " has a digest but no content");
      return;
    }
    run.blobsChecked++;
    MessageDigest sha = BlobDigest.newSha256();
    long length = 0;
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = content.open()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        sha.update(buffer, 0, n);
        length += n;
      }
    } catch (IOException e) {
      run.differ("blob " + actual.digest() + " of " + name + " cannot be read: " + e.getMessage());
      return;
    }
    BlobDigest hashed = BlobDigest.of(sha.digest());
    if (!hashed.equals(actual.digest()) || length != actual.size()) {
      run.differ(
          "blob "
              + actual.digest()
              + " of "
              + name
              + " holds "
              + length
              + " bytes hashing to "
              + hashed);
    }
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  private static List<String> lowerSorted(List<String> names) {
    return names.stream()
        .map(ContentCheck::lower)
        .distinct()
        .sorted(Comparator.naturalOrder())
        .toList();
  }
}
