package org.mailrestore.export;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupManifest;
import org.mailrestore.backup.BackupWriter;
import org.mailrestore.backup.ItemLayout;
import org.mailrestore.backup.ItemSink;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Revision;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailstoreReader.StoredAccount;
import org.mailrestore.mailstore.MailstoreReader.StoredItem;

/**
 * Writes restored mailboxes out as a backup in format v1: accounts, folders, tags and items (their
 * current state, one revision each) and every blob byte for byte, digest checked. Restoring the
 * export gives the same mailboxes. Grants and mountpoints are not exported.
 */
public final class BackupExporter {

  private final MailboxSource source;

  public BackupExporter(DataSource dataSource, Map<Integer, BlobVolume> volumes) {
    this.source = new MailboxSource(dataSource, volumes);
  }

  /** Exports the accounts into a new backup at {@code out} (a new or empty directory). */
  public ExportReport export(List<String> accountNames, Path out) throws IOException, SQLException {
    Path root = MaildirExporter.emptyDirectory(out);
    List<String> problems = new ArrayList<>();
    long[] counts = new long[3]; // folders, items, bytes
    BackupWriter writer =
        BackupWriter.create(
            root,
            BackupManifest.current(
                "mailrestore-export", Instant.now(), "exported from a mailrestore mailstore"));
    try (writer) {
      Map<String, Boolean> domains = new TreeMap<>();
      for (String name : accountNames) {
        StoredAccount account = source.account(name);
        if (domains.putIfAbsent(account.domain(), true) == null) {
          writer.writeDomain(new Domain(account.domain(), "active", Map.of()));
        }
        String id =
            BackupLayout.isSafeSegment(account.uuid()) ? account.uuid() : "account-" + account.id();
        Account backupAccount =
            new Account(
                id,
                account.name(),
                account.domain(),
                account.cos(),
                account.status(),
                account.system(),
                account.aliases(),
                Json.toMap(account.attributesJson()));
        try (ItemSink sink = writer.openAccount(backupAccount, ItemLayout.PACKED)) {
          int mailbox = account.mailboxId();
          for (Map.Entry<Integer, String> tag :
              new TreeMap<>(source.reader().tagNames(mailbox)).entrySet()) {
            sink.write(
                new Item(
                    tag.getKey(),
                    ItemType.TAG,
                    List.of(
                        Revision.builder(1, 0)
                            .folder(org.mailrestore.mail.SystemFolder.TAGS.id())
                            .name(tag.getValue())
                            .build())));
          }
          source.forEach(
              mailbox,
              EnumSet.of(ItemType.FOLDER, ItemType.SEARCH_FOLDER),
              (page, blobs) -> {
                for (StoredItem f : page) {
                  sink.write(item(f));
                  counts[0]++;
                }
              });
          source.forEach(
              mailbox,
              ItemType.contents(),
              (page, blobs) -> {
                for (StoredItem item : page) {
                  ItemRow row = item.row();
                  if (row.digest() != null) {
                    try (InputStream in = source.open(row, blobs)) {
                      writer.writeBlob(row.digest(), in, BlobCompression.NONE);
                    } catch (BlobException e) {
                      problems.add(account.name() + " item " + row.id() + ": " + e.getMessage());
                      continue;
                    }
                    counts[2] += row.size();
                  }
                  sink.write(item(item));
                  counts[1]++;
                }
              });
        }
      }
    }
    return new ExportReport(accountNames, counts[0], counts[1], counts[2], 0, problems);
  }

  /** The item as a record of one revision: its current state. */
  private static Item item(StoredItem stored) {
    ItemRow r = stored.row();
    Revision.Builder b =
        Revision.builder(1, 0)
            .uuid(r.uuid())
            .folder(r.folderId())
            .name(r.name())
            .flags(Flags.fromBits(r.flags()))
            .tags(stored.tags())
            .date(r.date())
            .sender(r.sender())
            .subject(r.subject())
            .view(r.view())
            .attrs(Json.toMap(r.metadata()));
    if (r.color() != null) {
      b.color(r.color());
    }
    if (r.digest() != null) {
      b.blob(r.size(), r.digest());
    }
    return new Item(r.id(), ItemType.fromCode(r.type()), List.of(b.build()));
  }
}
