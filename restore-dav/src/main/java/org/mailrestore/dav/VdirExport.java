package org.mailrestore.dav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobException;
import org.mailrestore.export.ExportFiles;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * Writes accounts' contacts, appointments and tasks out as a vdir, as vdirsyncer, Evolution and
 * Thunderbird's tools keep them: a directory per account, in it a directory per folder (a
 * collection) with a {@code displayname} file, a {@code color} file where the folder has a colour,
 * and a {@code .vcf} per contact or an {@code .ics} per appointment or task, made by the DAV
 * target's mapping (docs/dav-mapping.md) and named as the DAV target names them. Messages and
 * documents have no place in a vdir: they are counted as skipped.
 */
public final class VdirExport implements ExportFormat {

  @Override
  public String name() {
    return "vdir";
  }

  @Override
  public String description() {
    return "contacts, appointments and tasks as a vdir (a directory per account and folder, a .vcf"
        + " or .ics file per item)";
  }

  @Override
  public ExportReport export(MailSource source, List<String> accountIds, Path out)
      throws IOException {
    Path root = ExportFiles.emptyDirectory(out);
    List<String> names = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long folders = 0;
    long items = 0;
    long bytes = 0;
    long skipped = 0;
    for (String accountId : accountIds) {
      Account account =
          switch (source.account(accountId)) {
            case Parsed.Ok<Account>(Account a, String location) -> a;
            case Parsed.Failed<Account>(String location, String reason) ->
                throw new IOException("account " + accountId + " cannot be read: " + reason);
          };
      names.add(account.name());
      Path home = root.resolve(safeName(account.name()));
      Map<Integer, Revision> folderStates = new HashMap<>();
      try (ItemStream stream = source.items(accountId, EnumSet.of(ItemType.FOLDER))) {
        while (stream.hasNext()) {
          if (stream.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
            folderStates.put(d.item().id(), d.item().latest().get());
          }
        }
      }
      Set<Integer> made = new HashSet<>();
      try (ItemStream stream = source.items(accountId, DavTarget.CARRIED)) {
        while (stream.hasNext()) {
          ItemEntry entry = stream.next();
          if (!(entry instanceof ItemEntry.Decoded d) || d.item().latest().isEmpty()) {
            continue;
          }
          Item item = d.item();
          Revision state = item.latest().get();
          String what = account.name() + ": " + item.type().wireName() + " " + item.id();
          DavResource resource;
          try {
            resource = resource(source, account, item, state);
          } catch (CalendarObject.Refused | BlobException e) {
            problems.add(what + ": " + e.getMessage());
            continue;
          }
          Path collection = home.resolve(collection(state, folderStates));
          if (made.add(state.folderId())) {
            folders++;
            writeMetadata(collection, state.folderId(), folderStates);
          }
          byte[] text = resource.text().getBytes(StandardCharsets.UTF_8);
          try {
            ExportFiles.write(
                new ByteArrayInputStream(text),
                collection.resolve(resource.name()),
                state.date() > 0 ? FileTime.fromMillis(state.date()) : null);
            items++;
            bytes += text.length;
          } catch (FileAlreadyExistsException e) {
            problems.add(what + ": another item of UID " + resource.uid() + " is in the folder");
          }
        }
      }
      skipped += countOthers(source, accountId);
    }
    return new ExportReport(names, folders, items, bytes, skipped, problems);
  }

  private static DavResource resource(MailSource source, Account account, Item item, Revision state)
      throws IOException, CalendarObject.Refused {
    String uid = DavResource.itemUid(account.name(), item.id(), state);
    if (item.type() == ItemType.CONTACT) {
      return DavResource.contact(uid, state.attrs(), state.tags());
    }
    if (state.digest() == null) {
      return DavResource.calendar(
          item.type(),
          CalendarObject.withoutContent(state.attrs(), item.type(), uid, state.date()),
          state.tags());
    }
    byte[] content;
    try (InputStream in = source.blobs().openVerified(state.digest(), state.size())) {
      content = in.readAllBytes();
    }
    String text = CalendarObject.calendarText(content);
    return DavResource.calendar(
        item.type(), CalendarObject.resource(text, item.type(), uid), state.tags());
  }

  /** The item's collection directory: its folder's, named as the DAV target names it. */
  private static String collection(Revision state, Map<Integer, Revision> folders) {
    Revision folder = folders.get(state.folderId());
    SystemFolder system = SystemFolder.byId(state.folderId());
    String name =
        folder != null && folder.name() != null
            ? folder.name()
            : system != null ? system.folderName() : "folder";
    return DavCollections.collectionName(state.folderId(), name);
  }

  /** vdirsyncer's metadata files: the collection's name, and its colour where it has one. */
  private static void writeMetadata(Path collection, int folderId, Map<Integer, Revision> folders)
      throws IOException {
    Revision folder = folders.get(folderId);
    SystemFolder system = SystemFolder.byId(folderId);
    String name = folder != null && folder.name() != null ? folder.name() : null;
    if (name == null && system != null) {
      name = system.folderName();
    }
    if (name != null) {
      ExportFiles.write(
          new ByteArrayInputStream(name.getBytes(StandardCharsets.UTF_8)),
          collection.resolve("displayname"),
          null);
    }
    String color = folder == null ? null : DavCollections.color(folder.color());
    if (color != null) {
      ExportFiles.write(
          new ByteArrayInputStream(color.getBytes(StandardCharsets.UTF_8)),
          collection.resolve("color"),
          null);
    }
  }

  private static long countOthers(MailSource source, String accountId) throws IOException {
    long count = 0;
    Set<ItemType> others = EnumSet.copyOf(ItemType.contents());
    others.removeAll(DavTarget.CARRIED);
    try (ItemStream stream = source.items(accountId, others)) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
          count++;
        }
      }
    }
    return count;
  }

  /** An account's directory name: its address, with nothing a file name cannot hold. */
  private static String safeName(String address) {
    return address.replace('/', '_').replace('\0', '_');
  }
}
