package org.mailrestore.destination.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;

/**
 * What an in-memory target holds: domains, classes of service, lists, and accounts with their
 * mailboxes. Stores are named, so that every target opened with one name within the JVM (by the
 * engine, by a test reading back) shares it. One lock guards a store: it is a test's target, not a
 * fast one.
 */
public final class MemoryStore {

  private static final Map<String, MemoryStore> NAMED = new ConcurrentHashMap<>();

  final Map<String, Domain> domains = new TreeMap<>();
  final Map<String, ClassOfService> classesOfService = new TreeMap<>();
  final Map<String, DistributionList> lists = new TreeMap<>();
  final Map<String, Mailbox> byName = new TreeMap<>();
  final Map<String, String> aliasOwners = new HashMap<>();
  final Map<BlobDigest, byte[]> contents = new HashMap<>();
  private final String name;
  private final java.util.Set<String> faultyGrants = new java.util.HashSet<>();
  private final java.util.Set<String> fullHeap = new java.util.HashSet<>();
  private int nextKey = 1;

  private MemoryStore(String name) {
    this.name = name;
  }

  /** The store of this name, made empty the first time it is named. */
  public static MemoryStore named(String name) {
    return NAMED.computeIfAbsent(name, MemoryStore::new);
  }

  /** Forgets a store (a test's cleanup). */
  public static void forget(String name) {
    NAMED.remove(name);
  }

  public String name() {
    return name;
  }

  /** How many items of a type the store holds, over every account. */
  public synchronized long countOf(ItemType type) {
    return byName.values().stream()
        .flatMap(m -> m.items.values().stream())
        .filter(s -> s.type() == type)
        .count();
  }

  /** Changes an item's state, as a fault or a careless client would (a flag, a subject). */
  public synchronized void change(String account, int itemId, UnaryOperator<Revision> change) {
    Stored s = mailbox(account).items.get(itemId);
    mailbox(account)
        .items
        .put(itemId, new Stored(s.id(), s.type(), change.apply(s.state()), s.content()));
  }

  /** Copies an item under a new id: a duplicate. Answers the copy's id. */
  public synchronized int duplicate(String account, int itemId) {
    Mailbox m = mailbox(account);
    Stored s = m.items.get(itemId);
    int id = m.nextId();
    m.items.put(id, new Stored(id, s.type(), s.state(), s.content()));
    return id;
  }

  /** Flips a byte in the middle of an item's content. */
  public synchronized void damage(String account, int itemId) {
    Stored s = mailbox(account).items.get(itemId);
    byte[] bytes = s.content().clone();
    bytes[bytes.length / 2] ^= 1;
    mailbox(account).items.put(itemId, new Stored(s.id(), s.type(), s.state(), bytes));
  }

  /** The grants on an account's folders, as the target holds them. */
  public synchronized List<Grant> grants(String account) {
    Mailbox m = mailbox(account);
    return m == null ? List.of() : List.copyOf(m.grants);
  }

  /**
   * From now on, granting on this account's folders fails as a bug of the target's own would (an
   * unchecked exception): what the engine must keep to that account.
   */
  public synchronized void breakGrantsOf(String account) {
    faultyGrants.add(key(account));
  }

  synchronized void checkGrantable(Mailbox m) {
    if (faultyGrants.contains(key(m.account.name()))) {
      throw new IllegalStateException("the store's grants of " + m.account.name() + " are broken");
    }
  }

  /**
   * From now on, writing this account's items fails as the JVM does when its heap is full: with an
   * {@link OutOfMemoryError}, which the engine must not swallow, nor wait for for ever. {@code
   * false} ends it.
   */
  public synchronized void exhaustHeapWriting(String account, boolean exhausted) {
    if (exhausted) {
      fullHeap.add(key(account));
    } else {
      fullHeap.remove(key(account));
    }
  }

  synchronized void checkHeap(Mailbox m) {
    if (fullHeap.contains(key(m.account.name()))) {
      throw new OutOfMemoryError("the memory store plays a full heap writing " + m.account.name());
    }
  }

  /** Drops the first grant of the first account that has one; false when none has. */
  public synchronized boolean dropGrant() {
    for (Mailbox m : byName.values()) {
      if (!m.grants.isEmpty()) {
        m.grants.remove(0);
        return true;
      }
    }
    return false;
  }

  /**
   * Deletes an account's items of a type whose ids pass {@code which}, as its user would; answers
   * their ids.
   */
  public synchronized List<Integer> delete(String account, ItemType type, IntPredicate which) {
    Mailbox m = mailbox(account);
    List<Integer> gone = new ArrayList<>();
    m.items
        .values()
        .removeIf(s -> {
          if (s.type() == type && which.test(s.id())) {
            gone.add(s.id());
            return true;
          }
          return false;
        });
    m.origins.values().removeAll(gone);
    return gone;
  }

  /** An item, folder or system folder of a mailbox, with the target's ids. */
  record Stored(int id, ItemType type, Revision state, byte[] content) {}

  /** One account and its mailbox. */
  final class Mailbox {
    final int key;
    final String id;
    Account account;
    final TreeMap<Integer, Stored> items = new TreeMap<>();
    final TreeMap<Integer, String> tags = new TreeMap<>();
    final List<Grant> grants = new ArrayList<>();
    final Map<Integer, Revision.MountTarget> mounts = new HashMap<>();

    /** Each restored item by where it came from: how a cluster in doubt finds what it wrote. */
    final Map<String, Integer> origins = new HashMap<>();

    private int nextId = SystemFolder.FIRST_USER_ID;

    Mailbox(int key, String id, Account account) {
      this.key = key;
      this.id = id;
      this.account = account;
      addSystemFolders();
    }

    private void addSystemFolders() {
      for (SystemFolder f : SystemFolder.values()) {
        items.put(
            f.id(),
            new Stored(
                f.id(),
                ItemType.FOLDER,
                Revision.builder(1, 0)
                    .folder(f.parentId())
                    .name(f.folderName())
                    .view(f.view())
                    .build(),
                null));
      }
    }

    int nextId() {
      return nextId++;
    }

    /** Every item and tag goes; the system folders stay. */
    void empty() {
      items.clear();
      tags.clear();
      origins.clear();
      grants.clear();
      mounts.clear();
      addSystemFolders();
    }

    /** The tag's id, or null. */
    Integer tag(String tagName) {
      for (Map.Entry<Integer, String> t : tags.entrySet()) {
        if (t.getValue().equalsIgnoreCase(tagName)) {
          return t.getKey();
        }
      }
      return null;
    }
  }

  Mailbox create(Account settings, String id) {
    Mailbox m = new Mailbox(nextKey++, id, settings);
    byName.put(key(settings.name()), m);
    return m;
  }

  Mailbox mailbox(String accountName) {
    return byName.get(key(accountName));
  }

  Mailbox mailboxById(String id) {
    for (Mailbox m : byName.values()) {
      if (m.id.equals(id)) {
        return m;
      }
    }
    return null;
  }

  Mailbox mailbox(int key) {
    for (Mailbox m : byName.values()) {
      if (m.key == key) {
        return m;
      }
    }
    return null;
  }

  static String key(String address) {
    return address.toLowerCase(Locale.ROOT);
  }
}
