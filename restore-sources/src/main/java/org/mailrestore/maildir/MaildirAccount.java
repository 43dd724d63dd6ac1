package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.PathFence;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.maildir.MaildirPlan.MessageDir;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.LookAheadItemStream;
import org.mailrestore.source.SourceProblem;

/**
 * One user's directory of a Maildir tree, seen as an account: its folders (planned from the
 * directories alone, cheaply, when the account is first looked at) and its messages (read, hashed
 * and written as item records when its items are first read). Item ids follow the sorted order of
 * the tree, so the same tree always gives the same ids: a resumed restore must see an unchanged
 * tree.
 */
final class MaildirAccount {

  /** Cloned for each message's name UUID ({@link #uuid}). */
  private static final MessageDigest MD5 = md5();

  private final String accountId;
  private final Path userDir;
  private final MaildirLayout layout;
  private final PathFence fence;
  private final long maxItemBytes;
  private final MaildirPlan plan;
  private final Set<SourceProblem> problems =
      java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());

  MaildirAccount(String accountId, Path userDir, MaildirLayout layout, MaildirReading reading)
      throws IOException {
    this.accountId = accountId;
    this.userDir = userDir;
    this.layout = layout.resolve(userDir);
    this.fence = reading.fence();
    this.maxItemBytes = reading.maxItemBytes();
    this.plan = new MaildirPlan(userDir, this.layout, fence, this::problem);
  }

  private void problem(SourceProblem p) {
    problems.add(p);
  }

  MaildirLayout layout() {
    return layout;
  }

  /** System folder id to the directory that became it. */
  Map<Integer, String> systemDirs() {
    return plan.systemDirs();
  }

  /** What could not be read, in no order; the same problem met twice is listed once. */
  List<SourceProblem> problems() {
    return List.copyOf(problems);
  }

  /** The folder items, parents first. */
  List<MaildirPlan.Folder> folders() {
    return plan.folders();
  }

  /**
   * The account's item records of these types: its folders (planned already), then every message,
   * read as the stream passes it (hashed for its digest, its headers parsed for the list fields)
   * and registered with {@code blobs} so its blob can be opened by digest.
   */
  ItemStream items(Set<ItemType> types, MaildirBlobSource blobs) {
    List<Item> folderItems = new ArrayList<>();
    if (types.contains(ItemType.FOLDER)) {
      for (MaildirPlan.Folder f : plan.folders()) {
        folderItems.add(folderItem(f));
      }
    }
    boolean messages = types.contains(ItemType.MESSAGE);
    return new LookAheadItemStream() {
      private int folderIndex;
      private final List<MessageDir> messageDirs = plan.messageDirs();
      private int dirIndex = messages ? 0 : messageDirs.size();
      private List<Path> files = List.of();
      private int fileIndex;
      private int nextId = plan.firstMessageId();
      private final byte[] head = new byte[MessageFileRead.HEAD_BYTES];
      private final byte[] buffer = new byte[64 * 1024];

      @Override
      protected ItemEntry advance() {
        if (folderIndex < folderItems.size()) {
          Item f = folderItems.get(folderIndex++);
          return new ItemEntry.Decoded(f, f.revisions().get(0).name());
        }
        while (dirIndex < messageDirs.size()) {
          MessageDir md = messageDirs.get(dirIndex);
          if (fileIndex == 0 && files.isEmpty()) {
            files = entries(md.dir(), md.relDir());
          }
          while (fileIndex < files.size()) {
            Path name = files.set(fileIndex++, null); // read once: let it go with its item
            if (layout == MaildirLayout.MAILDIR && name.toString().startsWith(".")) {
              continue; // not a message in a Maildir (mu's .noindex, NFS's .nfs*): as Dovecot
            }
            Path path = md.dir().resolve(name);
            PathFence.Looked looked = regularFile(path);
            if (looked == null) {
              continue;
            }
            int id = nextId++;
            ItemEntry message = message(md, path, looked, id, head, buffer, blobs);
            if (message != null) {
              return message;
            }
          }
          dirIndex++;
          files = List.of();
          fileIndex = 0;
        }
        return null;
      }
    };
  }

  private Item folderItem(MaildirPlan.Folder f) {
    Revision.Builder r =
        Revision.builder(1, f.mtime())
            .uuid(uuid("folder:" + (f.relDir() == null ? "#" + f.id() : f.relDir())))
            .folder(f.parentId())
            .name(f.name())
            .view("message");
    if (f.relDir() != null) {
      r.attrs(Map.of(MaildirNames.DIR_ATTR, MaildirNames.encode(f.relDir())));
    }
    return new Item(f.id(), ItemType.FOLDER, List.of(r.build()));
  }

  private static String relative(MessageDir md, Path file) {
    String name = file.getFileName().toString();
    return md.relDir().isEmpty() ? name : md.relDir() + "/" + name;
  }

  /**
   * One message read (hashed, headers parsed); one larger than the largest item as an entry that
   * fails; null when its file cannot be read (reported as the source's problem).
   */
  private ItemEntry message(
      MessageDir md,
      Path file,
      PathFence.Looked looked,
      int id,
      byte[] head,
      byte[] buffer,
      MaildirBlobSource blobs) {
    String name = file.getFileName().toString();
    String rel = relative(md, file);
    BasicFileAttributes attrs = looked.attributes();
    try {
      MessageFileRead read =
          MessageFileRead.of(
              fence, looked, maxItemBytes, head, buffer, layout == MaildirLayout.MAILDIR);
      MessageHeaders headers = read.headers();
      long mtime = attrs.lastModifiedTime().toMillis();
      MaildirNames.State state =
          layout != MaildirLayout.MAILDIR
              ? MaildirNames.State.NONE
              : md.courier() != null
                  ? MaildirNames.stateWith(name, md.courier().of(name))
                  : MaildirNames.state(name, md.keywords());
      Revision r =
          Revision.builder(1, mtime)
              .uuid(uuid("message:" + rel))
              .folder(md.folderId())
              .flags(state.flags())
              .tags(state.tags())
              .date(headers.date() != null ? headers.date() : mtime)
              .blob(read.size(), read.digest())
              .sender(headers.sender())
              .subject(headers.subject())
              .attrs(state.attrs(rel))
              .build();
      blobs.register(
          accountId, read.digest(), file, attrs, read.whole(), read.compression(), read.size());
      return new ItemEntry.Decoded(new Item(id, ItemType.MESSAGE, List.of(r)), rel);
    } catch (BlobException e) {
      if (e.reason() != BlobException.Reason.TOO_LARGE) {
        problem(new SourceProblem(rel, "cannot read the message: " + e.getMessage()));
        return null;
      }
      return new ItemEntry.Undecodable(
          id, ItemType.MESSAGE, rel, e.getMessage(), false, FailureReason.ITEM_TOO_LARGE);
    } catch (IOException e) {
      problem(new SourceProblem(rel, "cannot read the message: " + e.getMessage()));
      return null;
    }
  }

  /** {@link UUID#nameUUIDFromBytes}'s, without its provider lookup for every message. */
  private String uuid(String what) {
    byte[] md5 = newMd5().digest((accountId + "/" + what).getBytes(StandardCharsets.UTF_8));
    md5[6] = (byte) (md5[6] & 0x0f | 0x30); // version 3: from a name, by MD5
    md5[8] = (byte) (md5[8] & 0x3f | 0x80); // the IETF variant
    ByteBuffer b = ByteBuffer.wrap(md5);
    return new UUID(b.getLong(), b.getLong()).toString();
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no MD5, which every JDK must have", e);
    }
  }

  private static MessageDigest newMd5() {
    try {
      return (MessageDigest) MD5.clone();
    } catch (CloneNotSupportedException e) {
      return md5();
    }
  }

  /**
   * A folder's entries, sorted: only their names, so that a folder of a million messages costs
   * about 60 bytes and the length of a name each while it is read (decisions 0021, 0032), less as
   * it is read: each is examined when its turn comes ({@link #regularFile}) and dropped then.
   */
  private List<Path> entries(Path dir, String rel) {
    try {
      return fence.names(dir);
    } catch (IOException e) {
      problem(new SourceProblem(rel, "cannot list the folder: " + e.getMessage()));
      return List.of();
    }
  }

  /**
   * A message file looked at (one {@code stat}, its attributes kept for the copy's check, its
   * directory for its open), or null for anything else: a symbolic link is reported and not
   * followed, so is a named pipe, a socket or a device (not read: it could block the restore); a
   * directory or a file that vanished is passed over.
   */
  private PathFence.Looked regularFile(Path p) {
    PathFence.Looked looked;
    try {
      looked = fence.look(p);
    } catch (IOException e) {
      return null;
    }
    BasicFileAttributes attrs = looked.attributes();
    if (attrs.isRegularFile()) {
      return looked;
    }
    if (attrs.isSymbolicLink() && !Files.isDirectory(p)) {
      linkNotFollowed(p);
    } else if (attrs.isOther()) {
      problem(MaildirPlan.notAFile(userDir, p));
    }
    return null;
  }

  private void linkNotFollowed(Path p) {
    problem(MaildirPlan.linkNotFollowed(userDir, p));
  }
}
