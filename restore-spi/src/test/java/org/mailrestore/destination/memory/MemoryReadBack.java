package org.mailrestore.destination.memory;

import java.io.ByteArrayInputStream;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSource;

/** An in-memory store read back: it keeps everything it is given. */
final class MemoryReadBack implements RestoredStore {

  private final MemoryStore store;
  private final boolean allTypes;

  MemoryReadBack(MemoryStore store, boolean allTypes) {
    this.store = store;
    this.allTypes = allTypes;
  }

  @Override
  public Set<Fidelity> fidelity() {
    Set<Fidelity> kept = EnumSet.allOf(Fidelity.class);
    if (!allTypes) {
      kept.remove(Fidelity.ALL_ITEM_TYPES);
    }
    return kept;
  }

  @Override
  public Optional<RestoredAccount> account(String name) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailbox(name);
      return m == null
          ? Optional.empty()
          : Optional.of(
              new RestoredAccount(
                  new ProvisionedAccount(m.key, m.id, m.account.name(), false), m.account));
    }
  }

  @Override
  public Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailbox(account.key());
      Map<Integer, RestoredItem> found = new HashMap<>();
      for (int id : ids) {
        MemoryStore.Stored s = m == null ? null : m.items.get(id);
        if (s != null) {
          found.put(id, restored(s));
        }
      }
      return found;
    }
  }

  static RestoredItem restored(MemoryStore.Stored s) {
    byte[] content = s.content();
    return new RestoredItem(
        new Item(s.id(), s.type(), List.of(s.state())),
        content == null ? null : () -> new ByteArrayInputStream(content));
  }

  @Override
  public long countItems(ProvisionedAccount account) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailbox(account.key());
      return m.items.tailMap(SystemFolder.FIRST_USER_ID).size() + m.tags.size();
    }
  }

  @Override
  public Map<Integer, String> tags(ProvisionedAccount account) {
    synchronized (store) {
      return Map.copyOf(store.mailbox(account.key()).tags);
    }
  }

  @Override
  public List<Grant> grants(ProvisionedAccount account) {
    synchronized (store) {
      return List.copyOf(store.mailbox(account.key()).grants);
    }
  }

  @Override
  public Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account) {
    synchronized (store) {
      return Map.copyOf(store.mailbox(account.key()).mounts);
    }
  }

  @Override
  public MailSource asSource() {
    return new MemorySource(store);
  }
}
