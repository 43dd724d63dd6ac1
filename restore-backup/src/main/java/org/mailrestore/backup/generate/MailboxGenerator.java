package org.mailrestore.backup.generate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.mailrestore.backup.ItemSink;
import org.mailrestore.backup.generate.BackupPlan.AccountPlan;
import org.mailrestore.backup.generate.BackupPlan.FolderPlan;
import org.mailrestore.backup.generate.BackupPlan.SharePlan;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;

/**
 * Generates the items of one account: its folders, tags and mountpoints first, then content items
 * whose ids and dates grow together, as in a real mailbox, with histories and deletions.
 */
final class MailboxGenerator {

  private static final long DAY = 86_400_000L;
  private static final long HISTORY_SPAN = 3 * 365 * DAY;

  private final GeneratorSpec spec;
  private final BackupPlan plan;
  private final AccountPlan account;
  private final BlobStore blobs;
  private final SplittableRandom random;
  private final SizeModel sizes;
  private final long start;
  private final long end;
  private final List<FolderPlan> messageFolders;
  private int nextId;
  private final Stats stats = new Stats();

  /** What was generated, for the report. */
  static final class Stats {
    long items;
    long contentItems;
    long liveContentItems;
    long blobBytes;
  }

  MailboxGenerator(GeneratorSpec spec, BackupPlan plan, AccountPlan account, BlobStore blobs) {
    this.spec = spec;
    this.plan = plan;
    this.account = account;
    this.blobs = blobs;
    this.random = new SplittableRandom(account.seed());
    this.sizes = new SizeModel(spec.largeRate());
    this.end = spec.createdAt().toEpochMilli() - DAY;
    this.start = end - HISTORY_SPAN;
    this.messageFolders = account.messageFolders();
  }

  Stats generate(ItemSink sink) throws IOException {
    nextId = SystemFolder.FIRST_USER_ID;
    for (FolderPlan folder : account.folders()) {
      write(sink, folderItem(folder));
      nextId = Math.max(nextId, folder.id() + 1);
    }
    for (String tag : account.tags()) {
      write(sink, tagItem(nextId++, tag));
    }
    for (SharePlan share : plan.shares()) {
      if (share.granteeIndex() == account.index()) {
        write(sink, mountpoint(nextId++, share));
      }
    }
    int count = account.system() ? Math.min(20, spec.itemsPerAccount()) : spec.itemsPerAccount();
    for (int i = 0; i < count; i++) {
      long date =
          start
              + (long) ((double) HISTORY_SPAN * i / Math.max(1, count))
              + random.nextLong(DAY / 2);
      Item item = account.system() ? contact(nextId++, date) : contentItem(nextId++, date);
      stats.contentItems++;
      if (!item.isDeleted()) {
        stats.liveContentItems++;
      }
      write(sink, item);
    }
    return stats;
  }

  private void write(ItemSink sink, Item item) throws IOException {
    sink.write(item);
    stats.items++;
  }

  private Item folderItem(FolderPlan f) {
    long created = start - DAY + random.nextLong(DAY / 2);
    ItemType type = f.query() != null ? ItemType.SEARCH_FOLDER : ItemType.FOLDER;
    Revision first =
        Revision.builder(1, created)
            .uuid(uuid())
            .folder(f.parentId())
            .name(f.name())
            .date(created)
            .color(f.color())
            .view(f.view())
            .attrs(f.query() != null ? Map.of("query", f.query()) : Map.of())
            .build();
    // Some user folders were renamed or recoloured once: their history has two states.
    if (f.id() >= SystemFolder.FIRST_USER_ID && random.nextDouble() < spec.historyFraction() / 2) {
      long changed = created + DAY + random.nextLong(HISTORY_SPAN / 2);
      Revision earlier =
          first.toBuilder().validTo(changed).name(f.name() + " (old)").color(-1).build();
      Revision later = first.toBuilder().rev(2).validFrom(changed).build();
      return new Item(f.id(), type, List.of(earlier, later));
    }
    return new Item(f.id(), type, List.of(first));
  }

  private Item tagItem(int id, String name) {
    long created = start - DAY / 2;
    return new Item(
        id,
        ItemType.TAG,
        List.of(
            Revision.builder(1, created)
                .uuid(uuid())
                .folder(SystemFolder.TAGS.id())
                .name(name)
                .date(created)
                .color(random.nextInt(10))
                .build()));
  }

  private Item mountpoint(int id, SharePlan share) {
    AccountPlan owner = plan.accounts().get(share.ownerIndex());
    FolderPlan folder =
        owner.folders().stream().filter(f -> f.id() == share.folderId()).findFirst().orElseThrow();
    String name = owner.name().substring(0, owner.name().indexOf('@')) + "'s " + folder.name();
    long created = start + random.nextLong(HISTORY_SPAN / 2);
    return new Item(
        id,
        ItemType.MOUNTPOINT,
        List.of(
            Revision.builder(1, created)
                .uuid(uuid())
                .folder(SystemFolder.USER_ROOT.id())
                .name(name)
                .date(created)
                .view(folder.view())
                .mount(new Revision.MountTarget(owner.id(), folder.id()))
                .build()));
  }

  private Item contentItem(int id, long date) throws IOException {
    int pick = random.nextInt(100);
    if (pick < 92) {
      return message(id, date);
    }
    if (pick < 96) {
      return contact(id, date);
    }
    if (pick < 98) {
      return blobItem(id, date, ItemType.APPOINTMENT, SystemFolder.CALENDAR.id(), "Meeting: ");
    }
    if (pick < 99) {
      return blobItem(id, date, ItemType.TASK, SystemFolder.TASKS.id(), "Task: ");
    }
    return blobItem(id, date, ItemType.DOCUMENT, SystemFolder.BRIEFCASE.id(), "Document: ");
  }

  private Item message(int id, long date) throws IOException {
    BlobDigest digest;
    long size;
    String sender;
    String subject;
    long messageDate = date;
    if (random.nextDouble() < spec.sharedFraction()) {
      BlobStore.SharedMessage shared = blobs.shared(random.nextInt(sharedPoolSize()));
      digest = shared.digest();
      size = shared.size();
      sender = shared.sender();
      subject = shared.subject();
      messageDate = shared.date();
    } else if (spec.metadataOnly()) {
      sender = someAddress();
      subject = subject();
      size = sizes.nextSize(random);
      digest = drawnDigest();
    } else {
      sender = someAddress();
      subject = subject();
      int target = sizes.nextSize(random);
      byte[] content =
          MessageComposer.compose(
              random,
              new MessageComposer.Envelope(
                  sender, account.name(), subject, date, account.domain(), random.nextLong()),
              target);
      digest = BlobDigest.ofContent(content);
      size = content.length;
      blobs.put(digest, content);
      stats.blobBytes += size;
    }
    int folder = messageFolder();
    StringBuilder flags = new StringBuilder();
    if (folder == SystemFolder.SENT.id()) {
      flags.append('s');
    }
    if (size > 64 * 1024) {
      flags.append('a');
    }
    if (random.nextInt(5) == 0) {
      flags.append('r');
    }
    if (random.nextInt(20) == 0) {
      flags.append('f');
    }
    boolean unread = folder != SystemFolder.SENT.id() && random.nextInt(4) == 0;
    if (unread) {
      flags.append('u');
    }
    List<String> tags = someTags();
    long delivered = messageDate + 1000 + random.nextLong(60_000);
    Revision first =
        Revision.builder(1, delivered)
            .uuid(uuid())
            .folder(folder)
            .flags(flags.toString())
            .tags(tags)
            .date(messageDate)
            .blob(size, digest)
            .sender(sender)
            .subject(subject)
            .build();
    return withHistory(id, ItemType.MESSAGE, first, unread);
  }

  private Item blobItem(int id, long date, ItemType type, int folder, String prefix)
      throws IOException {
    String subject = prefix + Words.words(random, 2 + random.nextInt(4));
    int size = 700 + random.nextInt(2500);
    BlobDigest digest;
    if (spec.metadataOnly()) {
      digest = drawnDigest();
    } else {
      byte[] content =
          MessageComposer.compose(
              random,
              new MessageComposer.Envelope(
                  account.name(),
                  account.name(),
                  subject,
                  date,
                  account.domain(),
                  random.nextLong()),
              size);
      if (type != ItemType.DOCUMENT) {
        // The message above was drawn all the same, so the rest of a seed's backup stays as it was.
        content = CalendarInvite.compose(type, id, subject, date, account.name(), account.domain());
      }
      digest = BlobDigest.ofContent(content);
      size = content.length;
      blobs.put(digest, content);
      stats.blobBytes += size;
    }
    String name = type == ItemType.DOCUMENT ? "document-" + id + ".eml" : null;
    Revision first =
        Revision.builder(1, date)
            .uuid(uuid())
            .folder(folder)
            .name(name)
            .date(date)
            .blob(size, digest)
            .sender(account.name())
            .subject(subject)
            .build();
    return withHistory(id, type, first, false);
  }

  private Item contact(int id, long date) {
    String first = Words.firstName(random.nextInt(1000));
    String last = Words.words(random, 1);
    Map<String, String> attrs = new LinkedHashMap<>();
    attrs.put("firstName", first);
    attrs.put("lastName", last);
    attrs.put(
        "email",
        first + "." + last + "@" + plan.domains().get(random.nextInt(plan.domains().size())));
    int folder =
        random.nextBoolean() ? SystemFolder.CONTACTS.id() : SystemFolder.AUTO_CONTACTS.id();
    Revision rev =
        Revision.builder(1, date)
            .uuid(uuid())
            .folder(folder)
            .date(date)
            .subject(last + ", " + first)
            .attrs(attrs)
            .build();
    return withHistory(id, ItemType.CONTACT, rev, false);
  }

  /** Adds later states to some items (read, moved, flagged) and deletes some. */
  private Item withHistory(int id, ItemType type, Revision first, boolean unread) {
    List<Revision> revisions = new ArrayList<>(3);
    Revision current = first;
    long horizon = end;
    if (random.nextDouble() < spec.historyFraction() && current.validFrom() + 2 * DAY < horizon) {
      long when =
          current.validFrom()
              + DAY
              + random.nextLong(Math.max(1, (horizon - current.validFrom()) / 2));
      String flags =
          unread
              ? current.flags().replace("u", "")
              : current.flags() + (current.flags().contains("f") ? "" : "f");
      int folder = current.folderId();
      if (type == ItemType.MESSAGE && random.nextBoolean()) {
        folder = messageFolder();
      }
      revisions.add(current.withValidTo(when));
      current =
          current.toBuilder()
              .rev(current.rev() + 1)
              .validFrom(when)
              .validTo(Revision.OPEN)
              .folder(folder)
              .flags(flags)
              .mount(null)
              .build();
    }
    if (random.nextDouble() < spec.deletedFraction() && current.validFrom() + DAY < horizon) {
      long when =
          current.validFrom() + 1 + random.nextLong(Math.max(1, horizon - current.validFrom() - 1));
      revisions.add(current.withValidTo(when));
      revisions.add(Revision.tombstone(current.rev() + 1, when));
    } else {
      revisions.add(current);
    }
    return new Item(id, type, revisions);
  }

  private int messageFolder() {
    int pick = random.nextInt(100);
    if (pick < 55 || messageFolders.isEmpty()) {
      return SystemFolder.INBOX.id();
    }
    if (pick < 70) {
      return SystemFolder.SENT.id();
    }
    if (pick < 72) {
      return SystemFolder.JUNK.id();
    }
    List<FolderPlan> user =
        messageFolders.stream().filter(f -> f.id() >= SystemFolder.FIRST_USER_ID).toList();
    return user.isEmpty() ? SystemFolder.INBOX.id() : user.get(random.nextInt(user.size())).id();
  }

  private List<String> someTags() {
    if (account.tags().isEmpty() || random.nextInt(10) != 0) {
      return List.of();
    }
    String first = account.tags().get(random.nextInt(account.tags().size()));
    String second = account.tags().get(random.nextInt(account.tags().size()));
    return first.equals(second) ? List.of(first) : List.of(first, second);
  }

  private String someAddress() {
    if (random.nextInt(3) == 0) {
      return Words.firstName(random.nextInt(100)) + "@partner" + random.nextInt(50) + ".example";
    }
    return plan.accounts().get(random.nextInt(plan.accounts().size())).name();
  }

  private String subject() {
    String s = Words.words(random, 3 + random.nextInt(6));
    s = Character.toUpperCase(s.charAt(0)) + s.substring(1);
    return random.nextInt(3) == 0 ? "Re: " + s : s;
  }

  private int sharedPoolSize() {
    return Math.max(
        16, (int) (spec.accounts() * spec.itemsPerAccount() * spec.sharedFraction() / 4));
  }

  /** A digest for an item whose blob is not written (metadata-only backups). */
  private BlobDigest drawnDigest() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return BlobDigest.of(bytes);
  }

  private String uuid() {
    return new java.util.UUID(random.nextLong(), random.nextLong()).toString();
  }
}
