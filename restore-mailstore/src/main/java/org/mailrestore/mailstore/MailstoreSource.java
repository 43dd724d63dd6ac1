package org.mailrestore.mailstore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mailstore.MailstoreReader.StoredItem;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.sql.Sql;

/**
 * The mailstore as a source, for export: accounts by their uuid, each mailbox's items (system
 * folders included) in id order a page at a time, tags as items, blobs found by digest in any
 * volume. Classes of service and lists are not presented.
 */
final class MailstoreSource implements MailSource {

  private static final int PAGE = 500;

  private final DataSource dataSource;
  private final MailstoreReader reader;
  private final Map<Integer, BlobVolume> volumes;

  MailstoreSource(DataSource dataSource, MailstoreReader reader, Map<Integer, BlobVolume> volumes) {
    this.dataSource = dataSource;
    this.reader = reader;
    this.volumes = volumes;
  }

  @Override
  public String describe() {
    return "a mailrestore mailstore";
  }

  /** The database and the server holding it: the mailstore read back, reachable. */
  @Override
  public String identity() throws IOException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT DATABASE(), @@hostname, @@port")) {
      rs.next();
      return "mailstore " + rs.getString(1) + " on " + rs.getString(2) + ":" + rs.getInt(3);
    } catch (SQLException e) {
      throw new IOException("the mailstore's database cannot be reached: " + e.getMessage(), e);
    }
  }

  @Override
  public String accountRef(String accountId) {
    return "mailstore/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return call(() -> reader.domains().stream().map(d -> ok(d, d.name())).toList());
  }

  @Override
  public List<String> accountIds() {
    return call(reader::accountUuids);
  }

  @Override
  public Parsed<Account> account(String accountId) {
    Optional<MailstoreReader.StoredAccount> a = call(() -> reader.accountByUuid(accountId));
    return a.isEmpty()
        ? new Parsed.Failed<>(accountId, "no such account in the mailstore")
        : ok(MailstoreReadBack.restored(a.get()).account(), accountId);
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return new Parsed.Ok<>(List.of(), accountId);
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    Integer mailbox;
    try {
      mailbox =
          reader
              .accountByUuid(accountId)
              .orElseThrow(() -> new IOException("no account " + accountId + " in the mailstore"))
              .mailboxId();
    } catch (SQLException e) {
      throw new IOException(e.getMessage(), e);
    }
    if (mailbox == null) {
      throw new IOException("account " + accountId + " has no mailbox");
    }
    List<Item> tags = new ArrayList<>();
    if (types.contains(ItemType.TAG)) {
      for (Map.Entry<Integer, String> t :
          new TreeMap<>(call(() -> reader.tagNames(mailbox))).entrySet()) {
        tags.add(
            new Item(
                t.getKey(),
                ItemType.TAG,
                List.of(
                    Revision.builder(1, 0)
                        .folder(SystemFolder.TAGS.id())
                        .name(t.getValue())
                        .build())));
      }
    }
    Collection<Integer> codes =
        types.stream().filter(t -> t != ItemType.TAG).map(ItemType::code).toList();
    return new Pages(mailbox, codes, tags);
  }

  /** The items of a mailbox, a page at a time. */
  private final class Pages implements ItemStream {
    private final int mailbox;
    private final Collection<Integer> codes;
    private final List<Item> buffered;
    private int after;
    private boolean exhausted;

    Pages(int mailbox, Collection<Integer> codes, List<Item> first) {
      this.mailbox = mailbox;
      this.codes = codes;
      this.buffered = new ArrayList<>(first);
      this.exhausted = codes.isEmpty();
    }

    @Override
    public boolean hasNext() {
      if (buffered.isEmpty() && !exhausted) {
        List<StoredItem> page = call(() -> reader.itemsAfter(mailbox, after, PAGE, codes));
        if (page.isEmpty()) {
          exhausted = true;
        } else {
          page.forEach(s -> buffered.add(StoredItems.item(s)));
          after = page.get(page.size() - 1).row().id();
        }
      }
      return !buffered.isEmpty();
    }

    @Override
    public ItemEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Item item = buffered.remove(0);
      return new ItemEntry.Decoded(item, "item " + item.id());
    }

    @Override
    public void close() {}
  }

  @Override
  public BlobSource blobs() {
    return new BlobSource() {
      @Override
      public InputStream open(BlobDigest digest) throws IOException {
        record Located(int volume, StoredBlob blob) {}
        Optional<Located> found;
        try {
          // by primary key (volume, digest), volume by volume: the digest alone is no index
          found = Optional.empty();
          for (int volumeId : new java.util.TreeSet<>(volumes.keySet())) {
            found =
                Sql.queryOne(
                    dataSource,
                    "SELECT volume_id, locator, raw_size, stored_size FROM volume_blob"
                        + " WHERE volume_id = ? AND digest = ?",
                    rs ->
                        new Located(
                            rs.getInt(1),
                            new StoredBlob(digest, rs.getString(2), rs.getLong(3), rs.getLong(4))),
                    volumeId,
                    digest.toBytes());
            if (found.isPresent()) {
              break;
            }
          }
        } catch (SQLException e) {
          throw new IOException(e.getMessage(), e);
        }
        BlobVolume volume = found.map(l -> volumes.get(l.volume())).orElse(null);
        if (volume == null) {
          throw new BlobException(
              BlobException.Reason.MISSING, "blob " + digest + " is in no volume of the mailstore");
        }
        return volume.open(found.get().blob());
      }

      @Override
      public String describe(BlobDigest digest) {
        return "mailstore blob " + digest;
      }
    };
  }

  @Override
  public void close() {}

  private static <T> Parsed<T> ok(T value, String location) {
    return new Parsed.Ok<>(value, location);
  }

  /** A query. */
  @FunctionalInterface
  private interface Query<T> {
    T run() throws SQLException;
  }

  private static <T> T call(Query<T> query) {
    try {
      return query.run();
    } catch (SQLException e) {
      throw new UncheckedIOException(new IOException(e.getMessage(), e));
    }
  }
}
