package org.mailrestore.imap;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.RestoredStore.RestoredItem;
import org.mailrestore.imap.ImapRecords.FolderRow;
import org.mailrestore.imap.ImapRecords.TagRow;
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
 * What restores wrote to an IMAP server, read back as a source for {@code export}: the accounts,
 * folders, tags and messages the records name, each message fetched from the server ({@code
 * BODY.PEEK[]}, its line endings given back as they were). Messages are fetched a chunk at a time;
 * their content is read by digest while their chunk is being streamed, which is when an export
 * writes it.
 */
final class ImapSource implements MailSource {

  private static final int CHUNK = 200;

  private final ImapReadBack readBack;
  private final ImapRecords records;
  private final String server;

  /**
   * The content of the chunk being streamed, by digest: a small message's bytes as fetched, a large
   * one's fetched again as it is read ({@link ImapReadBack#HELD_UP_TO}).
   */
  private final Map<BlobDigest, RestoredStore.Content> current =
      Collections.synchronizedMap(new HashMap<>());

  ImapSource(ImapReadBack readBack, ImapRecords records, String server) {
    this.readBack = readBack;
    this.records = records;
    this.server = server;
  }

  @Override
  public String describe() {
    return "the IMAP server " + server;
  }

  /** The server's address: a server is not replaced under a read-back (UIDVALIDITY guards ids). */
  @Override
  public String identity() {
    return "imap " + server;
  }

  @Override
  public String accountRef(String accountId) {
    return "imap/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    // A server keeps no domains of its own: its accounts' addresses name them.
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
      throw new UncheckedIOException(new IOException("reading the IMAP records: " + e, e));
    }
  }

  @Override
  public Parsed<Account> account(String accountId) {
    try {
      return readBack
          .account(accountId)
          .<Parsed<Account>>map(a -> new Parsed.Ok<>(a.account(), accountRef(accountId)))
          .orElseGet(() -> new Parsed.Failed<>(accountRef(accountId), "no restore recorded it"));
    } catch (SQLException | IOException e) {
      return new Parsed.Failed<>(accountRef(accountId), e.getMessage());
    }
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    try {
      Optional<ProvisionedAccount> ref = ref(accountId);
      return new Parsed.Ok<>(
          ref.isEmpty() ? List.of() : readBack.grants(ref.get()), accountRef(accountId));
    } catch (SQLException | IOException e) {
      return new Parsed.Failed<>(accountRef(accountId), e.getMessage());
    }
  }

  private Optional<ProvisionedAccount> ref(String accountId) throws SQLException, IOException {
    return readBack.account(accountId).map(a -> a.ref());
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    try {
      Optional<ProvisionedAccount> ref = ref(accountId);
      if (ref.isEmpty()) {
        throw new IOException("no restore recorded the account " + accountId + " on " + server);
      }
      int key = ref.get().key();
      Deque<ItemEntry> containers = new ArrayDeque<>();
      if (types.contains(ItemType.FOLDER)) {
        for (FolderRow f : records.folders(key).values()) {
          if (!SystemFolder.isReserved(f.id())) {
            Revision state = Revision.builder(1, 0).folder(f.parentId()).name(f.name()).build();
            containers.add(
                new ItemEntry.Decoded(
                    new Item(f.id(), ItemType.FOLDER, List.of(state)), location(accountId)));
          }
        }
      }
      if (types.contains(ItemType.TAG)) {
        for (TagRow t : records.tags(key).values()) {
          Revision state = Revision.builder(1, 0).name(t.name()).build();
          containers.add(
              new ItemEntry.Decoded(
                  new Item(t.id(), ItemType.TAG, List.of(state)), location(accountId)));
        }
      }
      List<Integer> messages =
          types.contains(ItemType.MESSAGE) ? records.messageIds(key) : List.of();
      return new Stream(ref.get(), containers, messages, location(accountId));
    } catch (SQLException e) {
      throw new IOException("reading the IMAP records of " + accountId + ": " + e.getMessage(), e);
    }
  }

  private String location(String accountId) {
    return server + "/" + accountId;
  }

  /** Containers first, then messages fetched a chunk at a time. */
  private final class Stream implements ItemStream {
    private final ProvisionedAccount account;
    private final Deque<ItemEntry> ahead;
    private final List<Integer> messages;
    private final String location;
    private int next;

    Stream(
        ProvisionedAccount account,
        Deque<ItemEntry> containers,
        List<Integer> messages,
        String location) {
      this.account = account;
      this.ahead = containers;
      this.messages = messages;
      this.location = location;
    }

    @Override
    public boolean hasNext() {
      if (ahead.isEmpty() && next < messages.size()) {
        fetchChunk();
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

    private void fetchChunk() {
      List<Integer> chunk = messages.subList(next, Math.min(messages.size(), next + CHUNK));
      next += chunk.size();
      current.clear();
      Map<Integer, RestoredItem> found;
      try {
        found = readBack.items(account, chunk);
      } catch (SQLException | IOException e) {
        for (int id : chunk) {
          ahead.add(unreadable(id, "fetching it from the server failed: " + e.getMessage()));
        }
        return;
      }
      for (int id : chunk) {
        RestoredItem item = found.get(id);
        if (item == null) {
          ahead.add(unreadable(id, "the server no longer holds it (deleted since the restore?)"));
          continue;
        }
        current.put(item.item().latest().orElseThrow().digest(), item.content());
        ahead.add(new ItemEntry.Decoded(item.item(), location + "/" + id));
      }
    }

    private ItemEntry unreadable(int id, String reason) {
      return new ItemEntry.Undecodable(id, ItemType.MESSAGE, location + "/" + id, reason, false);
    }

    @Override
    public void close() {
      current.clear();
    }
  }

  @Override
  public BlobSource blobs() {
    return new BlobSource() {
      @Override
      public InputStream open(BlobDigest digest) throws IOException {
        RestoredStore.Content content = current.get(digest);
        if (content == null) {
          throw new BlobException(
              BlobException.Reason.MISSING,
              "the content of " + digest.hex() + " is read while its message is streamed only");
        }
        return content.open();
      }

      @Override
      public String describe(BlobDigest digest) {
        return "message " + digest.hex() + " on " + server;
      }
    };
  }

  @Override
  public void close() {
    current.clear();
  }
}
