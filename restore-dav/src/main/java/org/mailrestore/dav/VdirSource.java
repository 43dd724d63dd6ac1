package org.mailrestore.dav;

import biweekly.ICalendar;
import ezvcard.VCard;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.LocalIdentity;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.Passing;

/**
 * A vdir as a source: a directory per account (named by its address), in it a directory per
 * collection holding a {@code .vcf} per contact or an {@code .ics} per appointment or task, as
 * vdirsyncer, Evolution and {@code export vdir} write them. A collection named as a system folder
 * ({@code contacts}, {@code emailed-contacts}, {@code calendar}, {@code tasks}) is that folder; any
 * other becomes a folder of its own, named by its {@code displayname} file, of the view its files
 * hold. A card's fields come back by the mapping (docs/dav-mapping.md); an event's or to-do's file
 * is its item's content, as it is.
 */
final class VdirSource implements MailSource {

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private final Path root;
  private final Map<String, Path> accounts;
  private final PathFence fence;
  private final long maxItemBytes;

  /**
   * @param account the one account {@code root} holds (its collections are its subdirectories), or
   *     null when its subdirectories are accounts named by their addresses
   */
  VdirSource(Path root, String account, PathFence fence, long maxItemBytes) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    this.fence = fence;
    this.maxItemBytes = maxItemBytes;
    if (!fence.isDirectory(this.root)) {
      throw new IOException(this.root + " is not a directory (or leads outside the allowed roots)");
    }
    this.accounts = new LinkedHashMap<>();
    if (account != null) {
      accounts.put(account.toLowerCase(Locale.ROOT), this.root);
    } else {
      for (Path dir : directories(this.root)) {
        String name = dir.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.contains("@")) {
          accounts.put(name, dir);
        }
      }
      if (accounts.isEmpty()) {
        throw new IOException(
            this.root
                + " holds no account directory (named by an address, such as"
                + " ann@example.org); for one account's vdir, give --vdir-account");
      }
    }
  }

  @Override
  public String describe() {
    return "vdir " + root;
  }

  @Override
  public String identity() throws IOException {
    return LocalIdentity.of(root);
  }

  @Override
  public String accountRef(String accountId) {
    return "vdir:" + root + "/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return accounts.keySet().stream()
        .map(a -> a.substring(a.indexOf('@') + 1))
        .distinct()
        .map(d -> (Parsed<Domain>) new Parsed.Ok<>(Domain.active(d), d))
        .toList();
  }

  @Override
  public List<String> accountIds() {
    return List.copyOf(accounts.keySet());
  }

  @Override
  public Parsed<Account> account(String accountId) {
    Path home = accounts.get(accountId);
    if (home == null) {
      return new Parsed.Failed<>(accountId, "this vdir holds no account " + accountId);
    }
    return new Parsed.Ok<>(Account.ofAddress(accountId), home.toString());
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return new Parsed.Ok<>(List.of(), root.toString());
  }

  /** A collection: its directory, the folder it is, and the item type its files hold. */
  private record Collection(Path dir, int folderId, String name, ItemType type) {}

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    Path home = accounts.get(accountId);
    if (home == null) {
      throw new IOException("this vdir holds no account " + accountId);
    }
    List<ItemEntry> entries = new ArrayList<>();
    int nextId = SystemFolder.FIRST_USER_ID;
    List<Collection> collections = new ArrayList<>();
    for (Path dir : directories(home)) {
      List<Path> files = files(dir);
      ItemType type = typeOf(files);
      if (type == null) {
        continue; // no card or calendar object: not a collection
      }
      SystemFolder system = systemFolder(dir.getFileName().toString(), type);
      String name = displayName(dir);
      int id = system != null ? system.id() : nextId++;
      collections.add(new Collection(dir, id, name, type));
      if (system == null && types.contains(ItemType.FOLDER)) {
        Revision folder =
            Revision.builder(1, 0)
                .folder(SystemFolder.USER_ROOT.id())
                .name(name)
                .view(type.wireName())
                .build();
        entries.add(
            new ItemEntry.Decoded(new Item(id, ItemType.FOLDER, List.of(folder)), dir.toString()));
      }
    }
    // The files are read one by one as the stream moves on: an account of a million events is
    // held as their names.
    List<ItemEntry> folders = entries;
    List<Object[]> work = new ArrayList<>();
    for (Collection c : collections) {
      for (Path file : files(c.dir())) {
        ItemType type = file.toString().endsWith(".vcf") ? ItemType.CONTACT : c.type();
        int id = nextId++; // ids stay the same whatever types are asked for
        if (types.contains(type)) {
          work.add(new Object[] {file, id, type, c});
        }
      }
    }
    java.util.Iterator<ItemEntry> head = folders.iterator();
    java.util.Iterator<Object[]> rest = work.iterator();
    return new ItemStream() {
      @Override
      public boolean hasNext() {
        return head.hasNext() || rest.hasNext();
      }

      @Override
      public ItemEntry next() {
        if (head.hasNext()) {
          return head.next();
        }
        Object[] w = rest.next();
        return read((Path) w[0], (Integer) w[1], (ItemType) w[2], (Collection) w[3]);
      }

      @Override
      public void close() {}
    };
  }

  private ItemEntry read(Path file, int id, ItemType type, Collection c) {
    String location = file.toString();
    try {
      java.nio.file.attribute.BasicFileAttributes attributes = fence.attributes(file);
      long size = attributes.size();
      if (size > maxItemBytes) {
        return new ItemEntry.Undecodable(
            id,
            type,
            location,
            size + " bytes, more than the largest item a restore reads (" + maxItemBytes + ")",
            false,
            FailureReason.ITEM_TOO_LARGE);
      }
      byte[] bytes;
      try (InputStream in = fence.open(file)) {
        bytes = in.readAllBytes();
      }
      // vCard 3.0 and 4.0 are UTF-8, but old exports (Outlook, phones) wrote their own 8-bit
      // charset: read as UTF-8 such a card became U+FFFD on the server, for good. As mail clients
      // do. A calendar object's bytes are its content as they are.
      String text =
          type == ItemType.CONTACT
              ? MessageHeaders.text(bytes, 0, bytes.length, WINDOWS_1252)
              : new String(bytes, StandardCharsets.UTF_8);
      long date = attributes.lastModifiedTime().toMillis();
      if (type == ItemType.CONTACT) {
        List<VCard> cards = ContactCard.read(text);
        if (cards.size() != 1) {
          return new ItemEntry.Undecodable(
              id, type, location, "holds " + cards.size() + " cards, not one", false);
        }
        VCard card = cards.get(0);
        Revision state =
            Revision.builder(1, date)
                .uuid(card.getUid() == null ? null : card.getUid().getValue())
                .folder(c.folderId())
                .date(date)
                .tags(DavResource.tagsOf(ItemType.CONTACT, text))
                .attrs(CardFields.of(card))
                .build();
        return new ItemEntry.Decoded(new Item(id, type, List.of(state)), location);
      }
      List<ICalendar> calendars = CalendarObject.read(text);
      if (calendars.size() != 1 || CalendarObject.uid(calendars.get(0)) == null) {
        return new ItemEntry.Undecodable(
            id, type, location, "is not one calendar object with a UID", false);
      }
      Revision state =
          Revision.builder(1, date)
              .folder(c.folderId())
              .date(date)
              .tags(DavResource.tagsOf(type, text))
              .subject(CalendarObject.summary(calendars.get(0)))
              .blob(bytes.length, org.mailrestore.blob.BlobDigest.ofContent(bytes))
              .build();
      return new ItemEntry.Decoded(
          new Item(id, type, List.of(state)), location, passing(bytes, file));
    } catch (IOException | RuntimeException e) {
      return new ItemEntry.Undecodable(
          id, type, location, "cannot be read: " + e.getMessage(), false);
    }
  }

  private static Passing passing(byte[] bytes, Path file) {
    return new Passing() {
      @Override
      public InputStream open() {
        return new ByteArrayInputStream(bytes);
      }

      @Override
      public long size() {
        return bytes.length;
      }

      @Override
      public String describe() {
        return file.toString();
      }
    };
  }

  /** The type a collection's files hold: contacts, tasks (VTODO), or appointments; null if none. */
  private ItemType typeOf(List<Path> files) throws IOException {
    for (Path f : files) {
      if (f.toString().endsWith(".vcf")) {
        return ItemType.CONTACT;
      }
      if (f.toString().endsWith(".ics")) {
        String text;
        try (InputStream in = fence.open(f)) {
          text = new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
        }
        return text.contains("BEGIN:VTODO") && !text.contains("BEGIN:VEVENT")
            ? ItemType.TASK
            : ItemType.APPOINTMENT;
      }
    }
    return null;
  }

  /** The system folder a collection of this name and type is, as {@code export vdir} names them. */
  private static SystemFolder systemFolder(String dirName, ItemType type) {
    for (SystemFolder f : SystemFolder.values()) {
      if (type.wireName().equals(f.view())
          && DavCollections.collectionName(f.id(), f.folderName()).equals(dirName)) {
        return f;
      }
    }
    return null;
  }

  private String displayName(Path dir) throws IOException {
    Path file = dir.resolve("displayname");
    if (fence.isRegularFile(file)) {
      String name;
      try (InputStream in = fence.open(file)) {
        name = new String(in.readNBytes(4096), StandardCharsets.UTF_8).strip();
      }
      if (!name.isEmpty()) {
        return name;
      }
    }
    return dir.getFileName().toString();
  }

  private List<Path> directories(Path dir) throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path name : fence.names(dir)) {
      Path p = dir.resolve(name);
      if (!name.toString().startsWith(".") && fence.isDirectory(p)) {
        found.add(p);
      }
    }
    return found;
  }

  private List<Path> files(Path dir) throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path name : fence.names(dir)) {
      String n = name.toString();
      Path p = dir.resolve(name);
      if (!n.startsWith(".")
          && (n.endsWith(".vcf") || n.endsWith(".ics"))
          && fence.isRegularFile(p)) {
        found.add(p);
      }
    }
    return found;
  }

  /** Every content passes with its item; nothing is read by digest. */
  @Override
  public BlobSource blobs() {
    return MailSource.passingOnly(root.toString());
  }

  @Override
  public void close() {}
}
