package org.mailrestore.runtime.compose;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSource;

/**
 * Composed targets read back as one: an account is the first part's; an item is asked of the part
 * its id names and answered with composed ids; what is kept is what every part keeps, and every
 * item type when the parts together carry them all. Tags are every part's, counted once.
 */
final class ComposedReadBack implements RestoredStore {

  private final ComposedTarget target;
  private final List<RestoredStore> stores;

  ComposedReadBack(ComposedTarget target, List<RestoredStore> stores) {
    this.target = target;
    this.stores = stores;
  }

  /** The parts that hold content (a directory part holds none). */
  private List<Integer> contentParts() {
    List<Integer> parts = new ArrayList<>();
    for (int i = 0; i < stores.size(); i++) {
      if (!target.part(i).contentTypes().isEmpty()) {
        parts.add(i);
      }
    }
    return parts;
  }

  @Override
  public Set<Fidelity> fidelity() {
    Set<Fidelity> kept = EnumSet.allOf(Fidelity.class);
    for (int part : contentParts()) {
      kept.retainAll(stores.get(part).fidelity());
    }
    if (target.contentTypes().containsAll(ItemType.contents())) {
      kept.add(Fidelity.ALL_ITEM_TYPES);
    }
    // A directory's account settings and aliases are the composition's.
    if (directory() >= 0) {
      for (Fidelity directoryKeeps : List.of(Fidelity.ACCOUNT_SETTINGS, Fidelity.ALIASES)) {
        if (stores.get(directory()).fidelity().contains(directoryKeeps)) {
          kept.add(directoryKeeps);
        }
      }
    }
    // Search folders and mountpoints go to the first part, and the tags read back are its own:
    // kept when it keeps them.
    for (Fidelity firstParts :
        List.of(Fidelity.SEARCH_FOLDERS, Fidelity.MOUNTPOINTS, Fidelity.TAGS)) {
      if (stores.get(0).fidelity().contains(firstParts)) {
        kept.add(firstParts);
      } else {
        kept.remove(firstParts);
      }
    }
    return kept;
  }

  @Override
  public boolean holds(ItemType type) {
    return target.contentTypes().contains(type);
  }

  /** Items of a type are kept as the part that takes them keeps them. */
  @Override
  public Set<Fidelity> fidelity(ItemType type) {
    RestoredStore store = storeOf(type);
    Set<Fidelity> kept = EnumSet.copyOf(store.fidelity(type));
    kept.retainAll(EnumSet.of(Fidelity.ITEM_DETAILS, Fidelity.TAGS));
    Set<Fidelity> all = EnumSet.copyOf(fidelity());
    all.removeAll(EnumSet.of(Fidelity.ITEM_DETAILS, Fidelity.TAGS));
    all.addAll(kept);
    return all;
  }

  @Override
  public Revision expected(ItemType type, Revision backup) {
    return storeOf(type).expected(type, backup);
  }

  @Override
  public boolean keepsBytes(ItemType type) {
    return storeOf(type).keepsBytes(type);
  }

  private RestoredStore storeOf(ItemType type) {
    int part = target.routing().itemPart(type);
    return part < 0 || part >= stores.size() ? stores.get(0) : stores.get(part);
  }

  @Override
  public int flagsKept() {
    int kept = ~0;
    for (int part : contentParts()) {
      kept &= stores.get(part).flagsKept();
    }
    return kept;
  }

  @Override
  public Set<SystemFolder> systemFolders() {
    return stores.get(0).systemFolders();
  }

  @Override
  public boolean keepsDate(long epochMillis) {
    for (int part : contentParts()) {
      if (!stores.get(part).keepsDate(epochMillis)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public long dateResolutionMillis() {
    long resolution = 1;
    for (int part : contentParts()) {
      resolution = Math.max(resolution, stores.get(part).dateResolutionMillis());
    }
    return resolution;
  }

  /** The first part that holds accounts but no content (a directory), or -1. */
  private int directory() {
    for (int i = 0; i < stores.size(); i++) {
      if (target.part(i).contentTypes().isEmpty()) {
        return i;
      }
    }
    return -1;
  }

  /** The account is the first part's; its settings are the directory's when there is one. */
  @Override
  public Optional<RestoredAccount> account(String name) throws SQLException, IOException {
    Optional<RestoredAccount> first = stores.get(0).account(name);
    int directory = directory();
    if (first.isEmpty() || directory < 0) {
      return first;
    }
    Optional<RestoredAccount> held = stores.get(directory).account(name);
    if (held.isEmpty()) {
      return Optional.empty(); // not in the directory: nobody can log in to it
    }
    return Optional.of(new RestoredAccount(first.get().ref(), held.get().account()));
  }

  @Override
  public org.mailrestore.mail.Account expected(org.mailrestore.mail.Account backup)
      throws SQLException, IOException {
    int directory = directory();
    return stores.get(directory < 0 ? 0 : directory).expected(backup);
  }

  /** The account in a part, as that part reads it back. */
  private Optional<ProvisionedAccount> in(int part, ProvisionedAccount account)
      throws SQLException, IOException {
    if (part == 0) {
      return Optional.of(account);
    }
    return stores.get(part).account(account.name()).map(RestoredAccount::ref);
  }

  @Override
  public Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids)
      throws SQLException, IOException {
    Map<Integer, List<Integer>> byPart = new HashMap<>();
    for (int id : ids) {
      byPart.computeIfAbsent(PartIds.part(id), k -> new ArrayList<>()).add(PartIds.local(id));
    }
    Map<Integer, RestoredItem> found = new HashMap<>();
    for (Map.Entry<Integer, List<Integer>> e : byPart.entrySet()) {
      int part = e.getKey();
      Optional<ProvisionedAccount> in = in(part, account);
      if (in.isEmpty()) {
        continue;
      }
      for (RestoredItem held : stores.get(part).items(in.get(), e.getValue()).values()) {
        Item item = composed(part, held.item());
        found.put(item.id(), new RestoredItem(item, held.content()));
      }
    }
    return found;
  }

  /** A part's item with composed ids: its own and its folder's. */
  static Item composed(int part, Item item) {
    List<Revision> revisions = new ArrayList<>(item.revisions().size());
    for (Revision r : item.revisions()) {
      revisions.add(
          r.deleted() ? r : r.toBuilder().folder(PartIds.encode(part, r.folderId())).build());
    }
    return new Item(PartIds.encode(part, item.id()), item.type(), revisions);
  }

  @Override
  public long countItems(ProvisionedAccount account) throws SQLException, IOException {
    long count = 0;
    for (int part : contentParts()) {
      Optional<ProvisionedAccount> in = in(part, account);
      if (in.isPresent()) {
        count += stores.get(part).countItems(in.get());
        if (part != 0) {
          count -= stores.get(part).tags(in.get()).size(); // every part keeps the tags
        }
      }
    }
    return count;
  }

  @Override
  public Map<Integer, String> tags(ProvisionedAccount account) throws SQLException, IOException {
    return stores.get(0).tags(account);
  }

  @Override
  public List<Grant> grants(ProvisionedAccount account) throws SQLException, IOException {
    List<Grant> grants = new ArrayList<>();
    for (int part : contentParts()) {
      Optional<ProvisionedAccount> in = in(part, account);
      if (in.isEmpty()) {
        continue;
      }
      for (Grant g : stores.get(part).grants(in.get())) {
        grants.add(
            new Grant(
                PartIds.encode(part, g.folderId()),
                g.granteeType(),
                g.granteeId(),
                g.granteeName(),
                g.rights()));
      }
    }
    return grants;
  }

  /** Kept as the part that holds the grant's folder keeps it. */
  @Override
  public Optional<Grant> expected(Grant grant) {
    int part = target.partOfFolder(grant.folderId());
    return part >= stores.size()
        ? Optional.of(grant)
        : stores.get(part).expected(local(grant)).map(g -> global(grant, g));
  }

  /** Kept as the part that holds the grant's folder keeps it, for the owner's account there. */
  @Override
  public Optional<Grant> expected(ProvisionedAccount owner, Grant grant)
      throws SQLException, IOException {
    int part = target.partOfFolder(grant.folderId());
    if (part >= stores.size()) {
      return Optional.of(grant);
    }
    Optional<ProvisionedAccount> in = in(part, owner);
    if (in.isEmpty()) {
      return expected(grant);
    }
    return stores.get(part).expected(in.get(), local(grant)).map(g -> global(grant, g));
  }

  /** A grant with its folder's id in its part. */
  private static Grant local(Grant grant) {
    return new Grant(
        PartIds.local(grant.folderId()),
        grant.granteeType(),
        grant.granteeId(),
        grant.granteeName(),
        grant.rights());
  }

  /** A part's grant with the folder's id of the composition again. */
  private static Grant global(Grant grant, Grant kept) {
    return new Grant(
        grant.folderId(), kept.granteeType(), kept.granteeId(), kept.granteeName(), kept.rights());
  }

  @Override
  public Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account)
      throws SQLException, IOException {
    return stores.get(0).mounts(account);
  }

  @Override
  public MailSource asSource() throws SQLException, IOException {
    List<MailSource> sources = new ArrayList<>();
    try {
      for (RestoredStore store : stores) {
        sources.add(store.asSource());
      }
    } catch (SQLException | IOException | RuntimeException e) {
      for (MailSource s : sources) {
        s.close();
      }
      throw e;
    }
    return new ComposedSource(target, sources);
  }

  @Override
  public void close() throws IOException {
    for (RestoredStore store : stores) {
      store.close();
    }
  }
}
