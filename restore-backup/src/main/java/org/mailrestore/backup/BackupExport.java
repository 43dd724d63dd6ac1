package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobException;
import org.mailrestore.export.ExportFiles;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * Writes accounts out as a backup in format v1: accounts, tags, folders and items (their current
 * state, one revision each) and every blob byte for byte, digest checked. Restoring the export
 * gives the same mailboxes. Grants and mountpoints are not exported.
 */
public final class BackupExport implements ExportFormat {

  @Override
  public String name() {
    return "backup";
  }

  @Override
  public String description() {
    return "accounts as a backup in format v1 (their current state; grants and mountpoints left"
        + " out), which restores to the same mailboxes";
  }

  @Override
  public ExportReport export(MailSource source, List<String> accountIds, Path out)
      throws IOException {
    Path root = ExportFiles.emptyDirectory(out);
    List<String> problems = new ArrayList<>();
    List<String> names = new ArrayList<>();
    long folders = 0;
    long items = 0;
    long bytes = 0;
    try (BackupWriter writer =
        BackupWriter.create(
            root,
            BackupManifest.current(
                "mailrestore-export", Instant.now(), "exported from " + source.describe()))) {
      Set<String> domains = new TreeSet<>();
      int fallback = 0;
      for (String id : accountIds) {
        Account account =
            switch (source.account(id)) {
              case Parsed.Ok<Account>(Account a, String location) -> a;
              case Parsed.Failed<Account>(String location, String reason) ->
                  throw new IOException("account " + id + " cannot be read: " + reason);
            };
        names.add(account.name());
        if (domains.add(account.domain())) {
          writer.writeDomain(Domain.active(account.domain()));
        }
        String backupId = BackupLayout.isSafeSegment(id) ? id : "account-" + ++fallback;
        Account exported =
            new Account(
                backupId,
                account.name(),
                account.domain(),
                account.cos(),
                account.status(),
                account.system(),
                account.aliases(),
                account.attributes());
        try (ItemSink sink = writer.openAccount(exported, ItemLayout.PACKED)) {
          for (Set<ItemType> types :
              List.of(
                  EnumSet.of(ItemType.TAG),
                  EnumSet.of(ItemType.FOLDER, ItemType.SEARCH_FOLDER),
                  ItemType.contents())) {
            try (ItemStream stream = source.items(id, types)) {
              while (stream.hasNext()) {
                if (!(stream.next() instanceof ItemEntry.Decoded d)
                    || d.item().latest().isEmpty()
                    || !types.contains(d.item().type())) {
                  continue;
                }
                Item item = d.item();
                Revision state = item.latest().get();
                if (state.digest() != null) {
                  try (InputStream in = source.blobs().openVerified(state.digest(), state.size())) {
                    writer.writeBlob(state.digest(), in, BlobCompression.NONE);
                  } catch (BlobException e) {
                    problems.add(account.name() + " item " + item.id() + ": " + e.getMessage());
                    continue;
                  }
                  bytes += state.size();
                }
                sink.write(current(item, state));
                if (item.type().isContainer()) {
                  folders += item.type() == ItemType.TAG ? 0 : 1;
                } else {
                  items++;
                }
              }
            }
          }
        }
      }
    }
    return new ExportReport(names, folders, items, bytes, 0, problems);
  }

  /** The item as a record of one revision: its current state. */
  private static Item current(Item item, Revision state) {
    return new Item(
        item.id(),
        item.type(),
        List.of(state.toBuilder().rev(1).validFrom(0).validTo(Revision.OPEN).build()));
  }
}
