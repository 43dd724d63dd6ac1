package org.mailrestore.destination.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/** Phase 1 into an in-memory store: everything is kept, and found again by address. */
final class MemoryProvisioning implements TargetProvisioning {

  private final MemoryStore store;

  MemoryProvisioning(MemoryStore store) {
    this.store = store;
  }

  @Override
  public boolean ensureDomain(Domain domain) {
    synchronized (store) {
      store.domains.putIfAbsent(domain.name(), domain);
      return true;
    }
  }

  @Override
  public boolean ensureClassOfService(ClassOfService cos) {
    synchronized (store) {
      store.classesOfService.putIfAbsent(cos.name(), cos);
      return true;
    }
  }

  @Override
  public boolean ensureList(DistributionList list) {
    synchronized (store) {
      DistributionList held = store.lists.get(list.address());
      Set<String> members = new LinkedHashSet<>(held == null ? List.of() : held.members());
      members.addAll(list.members());
      store.lists.put(
          list.address(),
          new DistributionList(
              list.address(),
              held == null ? list.displayName() : held.displayName(),
              List.copyOf(members),
              held == null ? list.attributes() : held.attributes()));
      return true;
    }
  }

  @Override
  public Optional<ProvisionedAccount> find(String name) {
    synchronized (store) {
      return Optional.ofNullable(store.mailbox(name)).map(m -> reference(m, false));
    }
  }

  @Override
  public boolean idInUse(String id) {
    synchronized (store) {
      return store.mailboxById(id) != null;
    }
  }

  @Override
  public ProvisionedAccount create(Account account, String name, String id, boolean withCos) {
    synchronized (store) {
      String chosen =
          id == null || store.mailboxById(id) != null ? UUID.randomUUID().toString() : id;
      Account settings = withCos(account.withName(name), withCos);
      settings =
          new Account(
              chosen,
              settings.name(),
              settings.domain(),
              settings.cos(),
              settings.status(),
              settings.system(),
              List.of(),
              settings.attributes());
      return reference(store.create(settings, chosen), true);
    }
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailbox(existing.key());
      Account held = m.account;
      Map<String, String> attributes = new HashMap<>(replace ? Map.of() : held.attributes());
      if (replace) {
        attributes.putAll(account.attributes());
      } else {
        account.attributes().forEach(attributes::putIfAbsent);
      }
      String cos =
          withCos ? (replace || held.cos() == null ? account.cos() : held.cos()) : held.cos();
      m.account =
          new Account(
              held.id(),
              held.name(),
              held.domain(),
              cos,
              replace ? account.status() : held.status(),
              replace ? account.system() : held.system(),
              held.aliases(),
              attributes);
      return existing;
    }
  }

  @Override
  public void empty(ProvisionedAccount account) {
    synchronized (store) {
      store.mailbox(account.key()).empty();
    }
  }

  @Override
  public List<String> addAliases(ProvisionedAccount account, List<String> aliases) {
    synchronized (store) {
      MemoryStore.Mailbox m = store.mailbox(account.key());
      List<String> taken = new ArrayList<>();
      Set<String> held = new LinkedHashSet<>(m.account.aliases());
      for (String alias : aliases) {
        String owner = store.aliasOwners.putIfAbsent(MemoryStore.key(alias), m.id);
        if (owner != null && !owner.equals(m.id)) {
          taken.add(alias);
        } else {
          held.add(alias);
        }
      }
      Account a = m.account;
      m.account =
          new Account(
              a.id(),
              a.name(),
              a.domain(),
              a.cos(),
              a.status(),
              a.system(),
              List.copyOf(held),
              a.attributes());
      return taken;
    }
  }

  private static Account withCos(Account a, boolean withCos) {
    return withCos
        ? a
        : new Account(
            a.id(),
            a.name(),
            a.domain(),
            null,
            a.status(),
            a.system(),
            a.aliases(),
            a.attributes());
  }

  private static ProvisionedAccount reference(MemoryStore.Mailbox m, boolean fresh) {
    return new ProvisionedAccount(m.key, m.id, m.account.name(), fresh);
  }
}
