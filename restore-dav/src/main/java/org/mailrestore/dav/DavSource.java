package org.mailrestore.dav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.dav.DavRecords.ResourceRow;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * What restores wrote to a DAV server, read back as a source for {@code export}: the accounts,
 * collections (as folders), tags and resources the records name, each resource as the server holds
 * it now: a card as a contact with its fields by the mapping, a calendar object as an appointment
 * or task whose content is the object's text. Collections are read one at a time (a {@code REPORT}
 * each); a calendar object's content is read by digest while its collection is being streamed,
 * which is when an export writes it.
 */
final class DavSource implements MailSource {

  private final DavReadBack readBack;
  private final DavServer server;
  private final DavRecords records;

  /** The content of the collection being streamed, by digest. */
  private final Map<BlobDigest, byte[]> current = Collections.synchronizedMap(new HashMap<>());

  DavSource(DavReadBack readBack, DavServer server, DavRecords records) {
    this.readBack = readBack;
    this.server = server;
    this.records = records;
  }

  @Override
  public String describe() {
    return "the DAV server " + server.describe();
  }

  @Override
  public String identity() {
    return "dav " + server.describe();
  }

  @Override
  public String accountRef(String accountId) {
    return "dav/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return accountIds().stream()
        .map(login -> login.substring(login.indexOf('@') + 1))
        .distinct()
        .sorted()
        .<Parsed<Domain>>map(d -> new Parsed.Ok<>(Domain.active(d), d))
        .toList();
  }

  @Override
  public List<String> accountIds() {
    try {
      return records.logins();
    } catch (SQLException e) {
      throw new UncheckedIOException(new IOException("reading the DAV records: " + e, e));
    }
  }

  @Override
  public Parsed<Account> account(String accountId) {
    try {
      return readBack
          .account(accountId)
          .<Parsed<Account>>map(a -> new Parsed.Ok<>(a.account(), accountRef(accountId)))
          .orElseGet(() -> new Parsed.Failed<>(accountRef(accountId), "no restore recorded it"));
    } catch (SQLException e) {
      return new Parsed.Failed<>(accountRef(accountId), e.getMessage());
    }
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return new Parsed.Ok<>(List.of(), accountRef(accountId));
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    try {
      int key =
          records
              .findAccount(accountId)
              .orElseThrow(() ->
                  new IOException(
                      "no restore recorded the account " + accountId + " on " + server.describe()));
      Map<Integer, CollectionRow> collections = records.collections(key);
      Deque<ItemEntry> containers = new ArrayDeque<>();
      String location = server.describe() + accountId;
      if (types.contains(ItemType.FOLDER)) {
        for (CollectionRow c : collections.values()) {
          if (!SystemFolder.isReserved(c.id())) {
            Revision state =
                Revision.builder(1, 0)
                    .folder(c.parentId())
                    .name(c.name())
                    .view(c.view())
                    .color(c.color())
                    .build();
            containers.add(
                new ItemEntry.Decoded(new Item(c.id(), ItemType.FOLDER, List.of(state)), location));
          }
        }
      }
      if (types.contains(ItemType.TAG)) {
        for (Map.Entry<Integer, String> t : records.tags(key).entrySet()) {
          Revision state = Revision.builder(1, 0).name(t.getValue()).build();
          containers.add(
              new ItemEntry.Decoded(new Item(t.getKey(), ItemType.TAG, List.of(state)), location));
        }
      }
      Map<Integer, List<ResourceRow>> byCollection = new LinkedHashMap<>();
      for (ResourceRow r : records.resources(key)) {
        if (types.contains(ItemType.fromCode(r.type()))) {
          byCollection.computeIfAbsent(r.collectionId(), k -> new ArrayList<>()).add(r);
        }
      }
      return new Stream(accountId, collections, byCollection, containers, location);
    } catch (SQLException e) {
      throw new IOException("reading the DAV records of " + accountId + ": " + e.getMessage(), e);
    }
  }

  /** Containers first, then each collection's resources, a collection read at a time. */
  private final class Stream implements ItemStream {
    private final String address;
    private final Map<Integer, CollectionRow> collections;
    private final Iterator<Map.Entry<Integer, List<ResourceRow>>> pending;
    private final Deque<ItemEntry> ahead;
    private final String location;

    Stream(
        String address,
        Map<Integer, CollectionRow> collections,
        Map<Integer, List<ResourceRow>> byCollection,
        Deque<ItemEntry> containers,
        String location) {
      this.address = address;
      this.collections = collections;
      this.pending = byCollection.entrySet().iterator();
      this.ahead = containers;
      this.location = location;
    }

    @Override
    public boolean hasNext() {
      while (ahead.isEmpty() && pending.hasNext()) {
        read(pending.next());
      }
      return !ahead.isEmpty();
    }

    @Override
    public ItemEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return ahead.poll();
    }

    private void read(Map.Entry<Integer, List<ResourceRow>> collection) {
      current.clear();
      CollectionRow c = collections.get(collection.getKey());
      if (c == null || c.kind() == CollectionKind.NONE) {
        return;
      }
      Map<String, String> data;
      try {
        data = readBack.listing(address, c);
      } catch (IOException e) {
        for (ResourceRow r : collection.getValue()) {
          ahead.add(
              new ItemEntry.Undecodable(
                  r.id(),
                  ItemType.fromCode(r.type()),
                  location + "/" + r.href(),
                  "the server's collection cannot be read: " + e.getMessage(),
                  false));
        }
        return;
      }
      for (ResourceRow r : collection.getValue()) {
        String text = data.get(r.href());
        ItemType type = ItemType.fromCode(r.type());
        String where = location + "/" + r.href();
        if (text == null) {
          continue; // no longer on the server: verify reports it
        }
        ahead.add(entry(r, type, text, where));
      }
    }

    private ItemEntry entry(ResourceRow r, ItemType type, String text, String where) {
      Revision.Builder b =
          Revision.builder(1, 0).folder(r.collectionId()).tags(DavResource.tagsOf(type, text));
      if (type == ItemType.CONTACT) {
        try {
          List<ezvcard.VCard> cards = ContactCard.read(text);
          if (cards.size() != 1) {
            return new ItemEntry.Undecodable(r.id(), type, where, "not one card", false);
          }
          b.uuid(r.uid()).attrs(CardFields.of(cards.get(0)));
        } catch (IOException e) {
          return new ItemEntry.Undecodable(r.id(), type, where, e.getMessage(), false);
        }
      } else {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        BlobDigest digest = BlobDigest.ofContent(bytes);
        current.put(digest, bytes);
        b.blob(bytes.length, digest);
      }
      return new ItemEntry.Decoded(new Item(r.id(), type, List.of(b.build())), where);
    }

    @Override
    public void close() {
      current.clear();
    }
  }

  /** A calendar object's text, while its collection is being streamed. */
  @Override
  public BlobSource blobs() {
    return new BlobSource() {
      @Override
      public InputStream open(BlobDigest digest) throws IOException {
        byte[] bytes = current.get(digest);
        if (bytes == null) {
          throw new BlobException(
              BlobException.Reason.MISSING,
              "the calendar object "
                  + digest
                  + " is read while its collection is streamed, not after");
        }
        return new ByteArrayInputStream(bytes);
      }

      @Override
      public String describe(BlobDigest digest) {
        return "calendar object " + digest + " on " + server.describe();
      }
    };
  }

  @Override
  public void close() {}
}
