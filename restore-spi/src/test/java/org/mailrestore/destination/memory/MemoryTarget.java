package org.mailrestore.destination.memory;

import java.util.Optional;
import java.util.Set;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;

/**
 * A target held in memory: what the engine's own tests restore into. Its writes do not commit with
 * the bookkeeping (as a mail server's do not), so it takes the engine's harder path: a cluster's
 * journal follows its writes, and a cluster in doubt is looked up item by item before anything is
 * written again.
 */
final class MemoryTarget implements MailTarget {

  private final MemoryStore store;
  private final Set<ItemType> types;

  MemoryTarget(MemoryStore store, Set<ItemType> types) {
    this.store = store;
    this.types = Set.copyOf(types);
  }

  @Override
  public String describe() {
    return "the in-memory store " + store.name();
  }

  @Override
  public boolean atomicCommits() {
    return false;
  }

  @Override
  public Set<ItemType> contentTypes() {
    return types;
  }

  @Override
  public TargetProvisioning provisioning() {
    return new MemoryProvisioning(store);
  }

  @Override
  public MailboxWriter mailbox(ProvisionedAccount account, WriteContext context) {
    return new MemoryWriter(store, account, context);
  }

  @Override
  public TargetShares shares() {
    return new TargetShares() {
      @Override
      public Optional<String> accountId(String id, String name) {
        synchronized (store) {
          MemoryStore.Mailbox m = id == null ? null : store.mailboxById(id);
          if (m == null && name != null) {
            m = store.mailbox(name);
          }
          return Optional.ofNullable(m).map(found -> found.id);
        }
      }

      @Override
      public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId) {
        synchronized (store) {
          MemoryStore.Mailbox m = store.mailbox(owner.key());
          store.checkGrantable(m);
          m.grants.removeIf(g ->
              g.folderId() == folder
                  && g.granteeType() == grant.granteeType()
                  && java.util.Objects.equals(g.granteeId(), granteeId));
          m.grants.add(
              new Grant(
                  folder, grant.granteeType(), granteeId, grant.granteeName(), grant.rights()));
          return true;
        }
      }

      @Override
      public boolean mount(
          ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder) {
        synchronized (store) {
          store
              .mailbox(owner.key())
              .mounts
              .put(mountpoint, new Revision.MountTarget(ownerId, remoteFolder));
          return true;
        }
      }
    };
  }

  @Override
  public RestoredStore readBack() {
    return new MemoryReadBack(store, types.containsAll(ItemType.contents()));
  }

  @Override
  public void check() {}

  @Override
  public void close() {}
}
