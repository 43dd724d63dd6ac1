package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.dav.DavRecords.ResourceRow;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.imap.AclRights;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSource;

/**
 * What a DAV server holds of a restore, read from the server through the target's records: each
 * collection as a folder, each card as a contact with its fields by the mapping, each calendar
 * object as an appointment or task that names the content it was made from when it is still what
 * was made from it.
 */
final class DavReadBack implements RestoredStore {

  private final DavServer server;
  private final DavRecords records;

  DavReadBack(DavServer server, DavRecords records) {
    this.server = server;
    this.records = records;
  }

  /**
   * Item details are compared as the mapping keeps them ({@link #expected}); tags travel as the
   * resources' marked {@code CATEGORIES}; grants are those its homes hold (none on Radicale).
   */
  @Override
  public Set<Fidelity> fidelity() {
    return EnumSet.of(Fidelity.ITEM_DETAILS, Fidelity.TAGS, Fidelity.GRANTS);
  }

  /**
   * A contact keeps its fields as its card holds them; an appointment or task keeps what its
   * calendar object holds, compared as the content it was made from; both keep the item's tags.
   * Neither keeps flags, dates or Zimbra's own details (sender, subject, uuid).
   */
  @Override
  public Revision expected(ItemType type, Revision backup) {
    Revision.Builder b = kept(backup.folderId()).tags(backup.tags());
    if (type == ItemType.CONTACT) {
      b.attrs(CardFields.of(ContactCard.toCard("expected", backup.attrs())));
    } else {
      b.blob(backup.size(), backup.digest());
    }
    return b.build();
  }

  private static Revision.Builder kept(int folder) {
    return Revision.builder(1, 0).folder(folder).flags("").tags(List.of()).date(0);
  }

  @Override
  public boolean holds(ItemType type) {
    return DavTarget.CARRIED.contains(type);
  }

  @Override
  public boolean keepsBytes(ItemType type) {
    return false;
  }

  /** Without the owner no folder is known to be a collection: nothing is expected. */
  @Override
  public Optional<Grant> expected(Grant grant) {
    return Optional.empty();
  }

  /**
   * A grant to a user on an address book or calendar, where the server holds grants, with its
   * rights as IMAP's ACL keeps them (Cyrus); nothing otherwise.
   */
  @Override
  public Optional<Grant> expected(ProvisionedAccount owner, Grant grant)
      throws SQLException, IOException {
    if (!server.homes().holdsGrants()
        || grant.granteeType() != GranteeType.USER
        || DavShares.collection(records, owner, grant.folderId()).isEmpty()) {
      return Optional.empty();
    }
    String rights = AclRights.fromImap(AclRights.toImap(grant.rights()));
    return rights.isEmpty()
        ? Optional.empty()
        : Optional.of(
            new Grant(
                grant.folderId(),
                grant.granteeType(),
                grant.granteeId(),
                grant.granteeName(),
                rights));
  }

  @Override
  public Optional<RestoredAccount> account(String name) throws SQLException {
    Optional<Integer> key = records.findAccount(name);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    // A DAV server keeps no account settings: the account is its address.
    return Optional.of(
        new RestoredAccount(
            new ProvisionedAccount(key.get(), name, name, false), Account.ofAddress(name)));
  }

  @Override
  public Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids)
      throws SQLException, IOException {
    Map<Integer, RestoredItem> found = new HashMap<>();
    Map<Integer, CollectionRow> collections = records.collections(account.key());
    for (int id : ids) {
      CollectionRow row = collections.get(id);
      if (row == null || SystemFolder.isReserved(id)) {
        continue;
      }
      String name = row.name();
      if (row.kind() != CollectionKind.NONE) {
        Optional<DavClient.Collection> there =
            server.client().collection(server.homes().at(account.name(), row.kind(), row.href()));
        if (there.isEmpty()) {
          continue;
        }
        name = there.get().displayName() == null ? name : there.get().displayName();
      }
      Revision state =
          Revision.builder(1, 0)
              .folder(row.parentId())
              .name(name)
              .view(row.view())
              .color(row.color())
              .build();
      found.put(id, new RestoredItem(new Item(id, ItemType.FOLDER, List.of(state)), null));
    }
    Map<Integer, List<ResourceRow>> byCollection = new LinkedHashMap<>();
    for (ResourceRow r : records.resources(account.key(), ids)) {
      byCollection.computeIfAbsent(r.collectionId(), k -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<Integer, List<ResourceRow>> e : byCollection.entrySet()) {
      CollectionRow collection = collections.get(e.getKey());
      if (collection == null) {
        continue;
      }
      Map<String, String> data = listing(account.name(), collection);
      for (ResourceRow r : e.getValue()) {
        String text = data.get(r.href());
        if (text != null) {
          found.put(r.id(), new RestoredItem(item(r, text), null));
        }
      }
    }
    return found;
  }

  /**
   * The resources of a user's collection on the server: their data by their place as the records
   * name it ({@code work-300/<uuid>.ics}).
   */
  Map<String, String> listing(String address, CollectionRow collection) throws IOException {
    URI uri = server.homes().at(address, collection.kind(), collection.href());
    List<DavClient.Resource> resources =
        collection.kind() == CollectionKind.ADDRESSBOOK
            ? server.client().cards(uri)
            : server.client().calendarObjects(uri);
    Map<String, String> data = new HashMap<>();
    for (DavClient.Resource r : resources) {
      String path = r.href().getRawPath();
      data.put(collection.href() + path.substring(path.lastIndexOf('/') + 1), r.data());
    }
    return data;
  }

  private static Item item(ResourceRow r, String text) {
    ItemType type = ItemType.fromCode(r.type());
    Revision.Builder b = kept(r.collectionId()).tags(DavResource.tagsOf(type, text));
    if (type == ItemType.CONTACT) {
      try {
        List<ezvcard.VCard> cards = ContactCard.read(text);
        b.attrs(cards.size() == 1 ? CardFields.of(cards.get(0)) : Map.of("card", text));
      } catch (IOException e) {
        b.attrs(Map.of("unreadable card", String.valueOf(e.getMessage())));
      }
    } else {
      byte[] canonical = DavResource.canonical(type, text);
      if (canonical != null && Arrays.equals(canonical, r.writtenSha256())) {
        b.blob(r.sourceSize(), r.sourceDigest());
      } else {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        b.blob(bytes.length, BlobDigest.ofContent(bytes));
      }
    }
    return new Item(r.id(), type, List.of(b.build()));
  }

  /**
   * The tags and folders recorded, and the resources recorded that the server still holds: a home
   * may hold the user's own cards and events beside the restored ones, as an IMAP inbox holds mail
   * of its own.
   */
  @Override
  public long countItems(ProvisionedAccount account) throws SQLException, IOException {
    long count = records.tags(account.key()).size();
    Map<Integer, CollectionRow> collections = records.collections(account.key());
    for (CollectionRow c : collections.values()) {
      if (!SystemFolder.isReserved(c.id())) {
        count++;
      }
    }
    Map<Integer, List<ResourceRow>> byCollection = new HashMap<>();
    for (ResourceRow r : records.resources(account.key())) {
      byCollection.computeIfAbsent(r.collectionId(), k -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<Integer, List<ResourceRow>> e : byCollection.entrySet()) {
      CollectionRow c = collections.get(e.getKey());
      if (c == null) {
        continue;
      }
      Set<String> held = listing(account.name(), c).keySet();
      Set<String> recorded = new HashSet<>();
      for (ResourceRow r : e.getValue()) {
        if (held.contains(r.href()) && recorded.add(r.href())) {
          count++;
        }
      }
    }
    return count;
  }

  @Override
  public Map<Integer, String> tags(ProvisionedAccount account) throws SQLException {
    return records.tags(account.key());
  }

  @Override
  public List<Grant> grants(ProvisionedAccount account) throws SQLException, IOException {
    List<Grant> grants = new ArrayList<>();
    if (!server.homes().holdsGrants()) {
      return grants;
    }
    for (CollectionRow row : records.collections(account.key()).values()) {
      if (row.kind() == CollectionKind.NONE) {
        continue;
      }
      for (Map.Entry<String, String> g : server.homes().grants(account.name(), row).entrySet()) {
        grants.add(new Grant(row.id(), GranteeType.USER, g.getKey(), g.getKey(), g.getValue()));
      }
    }
    return grants;
  }

  @Override
  public Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account) {
    return Map.of();
  }

  @Override
  public MailSource asSource() {
    return new DavSource(this, server, records);
  }
}
