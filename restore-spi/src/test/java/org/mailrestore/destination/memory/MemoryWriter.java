package org.mailrestore.destination.memory;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.Passing;

/**
 * Phase 2 of one account into an in-memory store: folders and tags, then items. Every write is kept
 * before the cluster's journal commits; an item remembers where it came from (its source id and
 * digest), so a cluster written again in doubt finds what it wrote and writes only the rest.
 */
final class MemoryWriter implements MailboxWriter {

  private final MemoryStore store;
  private final ProvisionedAccount account;
  private final WriteContext context;

  MemoryWriter(MemoryStore store, ProvisionedAccount account, WriteContext context) {
    this.store = store;
    this.account = account;
    this.context = context;
  }

  private MemoryStore.Mailbox mailbox() {
    MemoryStore.Mailbox m = store.mailbox(account.key());
    if (m == null) {
      throw new IllegalStateException("no mailbox " + account.key() + " in " + store.name());
    }
    return m;
  }

  @Override
  public Map<Integer, Set<String>> folderNamesByParent() {
    synchronized (store) {
      Map<Integer, Set<String>> names = new HashMap<>();
      for (MemoryStore.Stored s : mailbox().items.values()) {
        if (s.type().isContainer()) {
          names
              .computeIfAbsent(s.state().folderId(), k -> new HashSet<>())
              .add(s.state().name().toLowerCase(Locale.ROOT));
        }
      }
      return names;
    }
  }

  @Override
  public void writeFolders(FolderBatch batch, ClusterJournal journal) throws java.sql.SQLException {
    synchronized (store) {
      MemoryStore.Mailbox m = mailbox();
      Map<Integer, Integer> ids = new HashMap<>(batch.restored());
      if (batch.recoveryFolderName() != null) {
        Integer made = child(m, SystemFolder.USER_ROOT.id(), batch.recoveryFolderName());
        int id =
            made != null
                ? made
                : add(
                    m,
                    ItemType.FOLDER,
                    folder(SystemFolder.USER_ROOT.id(), batch.recoveryFolderName()),
                    null);
        journal.mapped(FolderBatch.RECOVERY_OLD_ID, id);
        ids.put(FolderBatch.RECOVERY_OLD_ID, id);
      }
      for (FolderToWrite f : batch.folders()) {
        Integer parent =
            switch (f.parent()) {
              case FolderBatch.Parent.System(int id) -> id;
              case FolderBatch.Parent.Planned(int oldId) -> ids.get(oldId);
              case FolderBatch.Parent.Recovery() -> ids.get(FolderBatch.RECOVERY_OLD_ID);
            };
        if (parent == null || !m.items.containsKey(parent)) {
          throw new IllegalStateException("folder " + f.oldId() + " comes before its parent");
        }
        Revision state = f.state().toBuilder().folder(parent).name(f.name()).build();
        // A cluster 0 written again (its journal lost) finds the folders it made.
        Integer made = child(m, parent, f.name());
        int id = made != null ? made : add(m, f.type(), state, null);
        ids.put(f.oldId(), id);
        journal.restored(f, id);
      }
      for (TagToWrite t : batch.tags()) {
        Integer existing = m.tag(t.name());
        if (existing != null) {
          journal.sameAs(t, existing);
        } else {
          int id = m.nextId();
          m.tags.put(id, t.name());
          journal.restored(t, id);
        }
      }
    }
    journal.commit();
  }

  /** The folder-like item of this name under a parent, or null. */
  private static Integer child(MemoryStore.Mailbox m, int parent, String name) {
    for (MemoryStore.Stored s : m.items.values()) {
      if (s.type().isContainer()
          && s.state().folderId() == parent
          && s.state().name().equalsIgnoreCase(name)) {
        return s.id();
      }
    }
    return null;
  }

  private static Revision folder(int parent, String name) {
    return Revision.builder(1, 0).folder(parent).name(name).build();
  }

  private static int add(MemoryStore.Mailbox m, ItemType type, Revision state, byte[] content) {
    int id = m.nextId();
    m.items.put(id, new MemoryStore.Stored(id, type, state, content));
    return id;
  }

  @Override
  public Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException {
    byte[] bytes;
    try (InputStream in = content.open()) {
      bytes = in.readAllBytes();
    }
    if (content.size() >= 0 && bytes.length != content.size()) {
      throw new BlobException(
          BlobException.Reason.SIZE_MISMATCH,
          content.describe()
              + ": "
              + bytes.length
              + " bytes, not the "
              + content.size()
              + " declared");
    }
    BlobDigest digest = BlobDigest.ofContent(bytes);
    if (declared != null && !declared.equals(digest)) {
      throw new BlobException(
          BlobException.Reason.DIGEST_MISMATCH,
          content.describe() + " hashes to " + digest + ", not " + declared);
    }
    return new Staged(digest, bytes.length, bytes);
  }

  @Override
  public void writeItems(ItemBatch batch, ClusterJournal journal)
      throws java.sql.SQLException, IOException {
    store.checkHeap(mailbox());
    for (ItemToWrite item : batch.items()) {
      String origin = origin(item);
      if (batch.inDoubt()) {
        Integer found;
        synchronized (store) {
          found = mailbox().origins.get(origin);
        }
        if (found != null) {
          journal.restored(item, found);
          continue;
        }
      }
      byte[] content = null;
      if (item.hasContent()) {
        try {
          content = content(item);
        } catch (BlobException e) {
          journal.failed(item, FailureReason.of(e.reason()), e.getMessage());
          continue;
        } catch (InterruptedIOException e) {
          throw e;
        } catch (IOException e) {
          journal.failed(item, FailureReason.BLOB_IO, e.getMessage());
          continue;
        }
      }
      synchronized (store) {
        MemoryStore.Mailbox m = mailbox();
        if (!m.items.containsKey(item.folder())) {
          journal.failed(
              item, FailureReason.TARGET_REFUSED, "the store has no folder " + item.folder());
          continue;
        }
        int id =
            add(m, item.type(), item.state().toBuilder().folder(item.folder()).build(), content);
        if (content != null) {
          store.contents.putIfAbsent(item.state().digest(), content);
        }
        m.origins.put(origin, id);
        journal.restored(item, id);
      }
    }
    journal.commit();
  }

  private byte[] content(ItemToWrite item) throws IOException {
    if (item.staged() != null) {
      return (byte[]) item.staged().handle();
    }
    long size = item.state().size();
    try {
      return context
          .content()
          .read(item.state().digest(), size > 0 ? size : -1, InputStream::readAllBytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to read an item's content");
    }
  }

  /** Where an item came from, as the store keeps it: its id in the source and its content. */
  private static String origin(ItemToWrite item) {
    return item.oldId() + "/" + item.state().digest();
  }

  @Override
  public void finish() {}
}
