package org.mailrestore.source;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSourceContract.Mailbox;
import org.mailrestore.source.MailSourceContract.Message;

/**
 * The contracts' reference mailboxes as a source, held in memory: what an export contract exports,
 * whatever format it writes.
 */
public final class ReferenceSource implements MailSource {

  private final Map<String, Mailbox> byUser = new HashMap<>();
  private final Map<BlobDigest, byte[]> contents = new HashMap<>();

  public ReferenceSource(List<Mailbox> mailboxes) {
    for (Mailbox m : mailboxes) {
      byUser.put(m.user(), m);
      m.messages().forEach(x -> contents.put(BlobDigest.ofContent(x.content()), x.content()));
    }
  }

  @Override
  public String describe() {
    return "the reference mailboxes";
  }

  @Override
  public String identity() {
    return "reference";
  }

  @Override
  public String accountRef(String accountId) {
    return "reference/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return List.of(new Parsed.Ok<>(Domain.active(MailSourceContract.DOMAIN), "domain"));
  }

  @Override
  public List<String> accountIds() {
    return byUser.keySet().stream().sorted().toList();
  }

  @Override
  public Parsed<Account> account(String accountId) {
    Mailbox m = byUser.get(accountId);
    return m == null
        ? new Parsed.Failed<>(accountId, "no such mailbox")
        : new Parsed.Ok<>(
            new Account(
                accountId,
                accountId + "@" + MailSourceContract.DOMAIN,
                MailSourceContract.DOMAIN,
                null,
                "active",
                false,
                List.of(),
                Map.of()),
            accountId);
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return new Parsed.Ok<>(List.of(), accountId);
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    Mailbox m = byUser.get(accountId);
    if (m == null) {
      throw new IOException("no mailbox " + accountId);
    }
    List<ItemEntry> entries = new ArrayList<>();
    Map<String, Integer> folders = new HashMap<>();
    folders.put("", SystemFolder.INBOX.id());
    int next = SystemFolder.FIRST_USER_ID;
    for (String path : m.folders()) {
      int slash = path.lastIndexOf('/');
      int parent = slash < 0 ? SystemFolder.USER_ROOT.id() : folders.get(path.substring(0, slash));
      int id = next++;
      folders.put(path, id);
      if (types.contains(ItemType.FOLDER)) {
        entries.add(
            new ItemEntry.Decoded(
                new Item(
                    id,
                    ItemType.FOLDER,
                    List.of(
                        Revision.builder(1, 0)
                            .folder(parent)
                            .name(path.substring(slash + 1))
                            .view("message")
                            .build())),
                path));
      }
    }
    for (Message message : m.messages()) {
      int id = next++;
      if (types.contains(ItemType.MESSAGE)) {
        entries.add(
            new ItemEntry.Decoded(
                new Item(
                    id,
                    ItemType.MESSAGE,
                    List.of(
                        Revision.builder(1, 0)
                            .folder(folders.get(message.folder()))
                            .flags(message.flags())
                            .date(989_883_540_000L + id * 1000L)
                            .blob(message.content().length, BlobDigest.ofContent(message.content()))
                            .build())),
                "message " + id));
      }
    }
    return ItemStream.of(entries);
  }

  @Override
  public BlobSource blobs() {
    return new BlobSource() {
      @Override
      public InputStream open(BlobDigest digest) throws IOException {
        byte[] content = contents.get(digest);
        if (content == null) {
          throw new BlobException(BlobException.Reason.MISSING, "no content " + digest);
        }
        return new ByteArrayInputStream(content);
      }

      @Override
      public String describe(BlobDigest digest) {
        return "reference content " + digest;
      }
    };
  }

  @Override
  public void close() {}
}
