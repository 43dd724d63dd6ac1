package org.mailrestore.destination.memory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
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
 * An in-memory store as a source, for export and for restoring it elsewhere: accounts by their id,
 * each mailbox's folders (system ones included) in id order, tags, then content.
 */
final class MemorySource implements MailSource {

  private final MemoryStore store;

  MemorySource(MemoryStore store) {
    this.store = store;
  }

  @Override
  public String describe() {
    return "the in-memory store " + store.name();
  }

  @Override
  public String identity() {
    return "memory " + store.name() + "@" + System.identityHashCode(store);
  }

  @Override
  public String accountRef(String accountId) {
    return "memory/" + store.name() + "/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    synchronized (store) {
      return store.domains.values().stream()
          .<Parsed<Domain>>map(d -> new Parsed.Ok<>(d, d.name()))
          .toList();
    }
  }

  @Override
  public List<Parsed<ClassOfService>> classesOfService() {
    synchronized (store) {
      return store.classesOfService.values().stream()
          .<Parsed<ClassOfService>>map(c -> new Parsed.Ok<>(c, c.name()))
          .toList();
    }
  }

  @Override
  public List<Parsed<DistributionList>> distributionLists() {
    synchronized (store) {
      return store.lists.values().stream()
          .<Parsed<DistributionList>>map(l -> new Parsed.Ok<>(l, l.address()))
          .toList();
    }
  }

  @Override
  public List<String> accountIds() {
    synchronized (store) {
      return store.byName.values().stream().map(m -> m.id).sorted().toList();
    }
  }

  @Override
  public Parsed<Account> account(String accountId) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailboxById(accountId);
      return m == null
          ? new Parsed.Failed<>(accountId, "no such account in " + describe())
          : new Parsed.Ok<>(m.account, accountId);
    }
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailboxById(accountId);
      return m == null
          ? new Parsed.Failed<>(accountId, "no such account in " + describe())
          : new Parsed.Ok<>(List.copyOf(m.grants), accountId);
    }
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    List<ItemEntry> entries = new ArrayList<>();
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailboxById(accountId);
      if (m == null) {
        throw new IOException("no account " + accountId + " in " + describe());
      }
      for (MemoryStore.Stored s : m.items.values()) {
        if (s.type().isContainer() && types.contains(s.type()) && !isRoot(s.id())) {
          entries.add(entry(s));
        }
      }
      if (types.contains(ItemType.TAG)) {
        m.tags.forEach((id, name) ->
            entries.add(
                new ItemEntry.Decoded(
                    new Item(
                        id,
                        ItemType.TAG,
                        List.of(
                            Revision.builder(1, 0)
                                .folder(SystemFolder.TAGS.id())
                                .name(name)
                                .build())),
                    "tag " + id)));
      }
      for (MemoryStore.Stored s : m.items.values()) {
        if (!s.type().isContainer() && types.contains(s.type())) {
          entries.add(entry(s));
        }
      }
    }
    return ItemStream.of(entries);
  }

  /** The roots are the tree's top, not folders of it. */
  private static boolean isRoot(int id) {
    return id == SystemFolder.ROOT.id() || id == SystemFolder.USER_ROOT.id();
  }

  private static ItemEntry entry(MemoryStore.Stored s) {
    return new ItemEntry.Decoded(new Item(s.id(), s.type(), List.of(s.state())), "item " + s.id());
  }

  @Override
  public BlobSource blobs() {
    return new BlobSource() {
      @Override
      public InputStream open(BlobDigest digest) throws IOException {
        byte[] content;
        synchronized (store) {
          content = store.contents.get(digest);
        }
        if (content == null) {
          throw new BlobException(BlobException.Reason.MISSING, "no content " + digest);
        }
        return new ByteArrayInputStream(content);
      }

      @Override
      public String describe(BlobDigest digest) {
        return "content " + digest + " of " + MemorySource.this.describe();
      }
    };
  }

  @Override
  public void close() {}
}
