package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Phase 1 into the directory, through a {@link Layout}. Idempotent: an entry that exists is found
 * and brought up to date by the policy's rules ({@link EntryChanges}), and nothing is written when
 * it already is; a re-run leaves every entry's modify timestamp as it was. Accounts have no mailbox
 * here ({@link ProvisionedAccount#key()} 0): the target composed beside the directory holds it.
 */
final class LdapProvisioning implements TargetProvisioning {

  private final Directory directory;
  private final Layout layout;

  /** How long an account found absent is believed absent: the span of one account's phase 1. */
  private static final long ABSENT_NANOS = 5_000_000_000L;

  /** Accounts just found absent, by lower-case address, with when (a few are kept). */
  private final Map<String, Long> absent = recent();

  /**
   * The entries this instance just made or updated, by lower-case address: phase 1 adds an
   * account's aliases right after making it, and they were made with it. A few are kept.
   */
  private final Map<String, Entry> made = recent();

  /** A small map of the latest keys, for what one account's phase 1 asks twice. */
  private static <V> Map<String, V> recent() {
    return java.util.Collections.synchronizedMap(
        new java.util.LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
            return size() > 64;
          }
        });
  }

  private final AddressSnapshot snapshot;
  private final SharedEntries shared;

  LdapProvisioning(Directory directory, Layout layout) {
    this.directory = directory;
    this.layout = layout;
    this.snapshot = new AddressSnapshot(directory, layout);
    this.shared = new SharedEntries(directory, layout, snapshot);
  }

  @Override
  public boolean ensureDomain(Domain domain) throws IOException {
    return shared.ensureDomain(domain);
  }

  @Override
  public boolean ensureClassOfService(ClassOfService cos) throws IOException {
    return shared.ensureClassOfService(cos);
  }

  @Override
  public boolean ensureList(DistributionList list) throws IOException {
    return shared.ensureList(list);
  }

  /** The account's entry with every user attribute, if the directory has it. */
  private Optional<SearchResultEntry> entry(String name) throws IOException {
    List<SearchResultEntry> found =
        directory.search(layout.base, layout.accountByAddress(name), "*");
    if (found.size() > 1) {
      throw new ProvisioningRefusedException(
          "the directory holds "
              + found.size()
              + " accounts for "
              + name
              + " ("
              + found.get(0).getDN()
              + ", "
              + found.get(1).getDN()
              + "): make it one");
    }
    return found.stream().findFirst();
  }

  @Override
  public Optional<ProvisionedAccount> find(String name) throws IOException {
    String key = name.toLowerCase(Locale.ROOT);
    made.remove(key); // what was made before is the directory's now
    Long absentSince = absent.get(key);
    if (absentSince != null && System.nanoTime() - absentSince < ABSENT_NANOS) {
      return Optional
          .empty(); // asked a moment ago, in this account's phase 1 (composition asks twice)
    }
    if (!snapshot.mayBeTaken(List.of(name))) {
      absent.put(key, System.nanoTime());
      return Optional.empty();
    }
    Optional<ProvisionedAccount> found =
        entry(name).map(e -> new ProvisionedAccount(0, layout.accountId(e), name, false));
    if (found.isEmpty()) {
      absent.put(key, System.nanoTime());
    } else {
      absent.remove(key);
    }
    return found;
  }

  @Override
  public boolean idInUse(String id) throws IOException {
    Filter byId = layout.byId(id);
    return byId != null && !directory.search(layout.base, byId, "1.1").isEmpty();
  }

  @Override
  public ProvisionedAccount create(Account account, String name, String id, boolean withCos)
      throws IOException {
    Address address = Address.parse(name);
    shared.ensure(layout.containers(address), "account " + name);
    Entry entry = layout.account(account, name, id, withCos ? shared.cosId(account.cos()) : null);
    List<Address> aliases = freeAliases(account.aliases(), null);
    for (Address alias : aliases) {
      layout.aliasValues(alias.original()).forEach(entry::addAttribute);
    }
    layout.checkSizes(entry, "account " + name);
    absent.remove(name.toLowerCase(Locale.ROOT));
    try {
      directory.add(entry);
    } catch (ProvisioningRefusedException e) {
      // Made since it was looked for (another writer, a snapshot a minute old): bring it up to
      // date.
      Optional<SearchResultEntry> held =
          Directory.alreadyExists(e) ? entry(name) : Optional.empty();
      if (held.isEmpty()) {
        throw e;
      }
      return update(
          new ProvisionedAccount(0, layout.accountId(held.get()), name, false),
          account,
          false,
          withCos);
    }
    made.put(name.toLowerCase(Locale.ROOT), entry);
    List<String> receives = new ArrayList<>(List.of(name));
    aliases.forEach(a -> receives.add(a.original()));
    snapshot.added(receives);
    String accountId = layout.accountId(entry);
    for (Address alias : aliases) {
      shared.ensure(layout.aliasEntries(alias, accountId), "alias " + alias.original());
    }
    return new ProvisionedAccount(0, accountId, name, true);
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos)
      throws IOException {
    String name = existing.name();
    SearchResultEntry current =
        entry(name)
            .orElseThrow(() ->
                new ProvisioningRefusedException(
                    "the account " + name + " left the directory while it was restored"));
    String accountId = layout.accountId(current);
    Entry desired =
        layout.account(
            account,
            name,
            accountId == null ? existing.id() : accountId,
            withCos ? shared.cosId(account.cos()) : null);
    List<Address> aliases = freeAliases(account.aliases(), Directory.dn(current));
    for (Address alias : aliases) {
      layout.aliasValues(alias.original()).forEach(desired::addAttribute);
    }
    layout.checkSizes(desired, "account " + name);
    directory.modify(
        Directory.dn(current),
        EntryChanges.between(current, desired, replace, additive(), layout.room));
    String id = layout.accountId(desired);
    for (Address alias : aliases) {
      shared.ensure(layout.aliasEntries(alias, id), "alias " + alias.original());
    }
    return new ProvisionedAccount(0, id, name, existing.fresh());
  }

  private Set<String> additive() {
    Set<String> additive = new HashSet<>();
    additive.add("mail");
    layout.aliasAttributes().forEach(a -> additive.add(a.toLowerCase(Locale.ROOT)));
    return additive;
  }

  /**
   * The aliases no other entry receives mail for (those of the entry {@code own} aside), checked as
   * addresses.
   */
  private List<Address> freeAliases(List<String> aliases, @Nullable DN own) throws IOException {
    if (aliases.isEmpty()) {
      return List.of();
    }
    Set<String> taken = taken(aliases, own);
    List<Address> free = new ArrayList<>();
    for (String alias : new LinkedHashSet<>(aliases)) {
      if (!taken.contains(alias.toLowerCase(Locale.ROOT))) {
        free.add(Address.parse(alias).keeping(alias));
      }
    }
    return free;
  }

  /** Which of these addresses another entry than {@code own} receives mail for, lower case. */
  private Set<String> taken(List<String> addresses, @Nullable DN own) throws IOException {
    if (!snapshot.mayBeTaken(addresses)) {
      return Set.of();
    }
    Set<String> wanted = new HashSet<>();
    addresses.forEach(a -> wanted.add(a.toLowerCase(Locale.ROOT)));
    Set<String> taken = new HashSet<>();
    for (SearchResultEntry holder :
        directory.search(
            layout.base,
            layout.receiving(addresses),
            "mail",
            "mailLocalAddress",
            "cn",
            "zimbraMailAlias",
            "zimbraMailDeliveryAddress")) {
      if (own != null && Directory.dn(holder).equals(own)) {
        continue;
      }
      for (var a : holder.getAttributes()) {
        for (String v : a.getValues()) {
          if (wanted.contains(v.toLowerCase(Locale.ROOT))) {
            taken.add(v.toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    return taken;
  }

  private boolean holdsAll(Entry entry, List<String> aliases) {
    for (String alias : aliases) {
      for (Map.Entry<String, String> v : layout.aliasValues(alias).entrySet()) {
        if (!entry.hasAttributeValue(v.getKey(), v.getValue())) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public void empty(ProvisionedAccount account) {
    // The directory keeps no mailbox: the part that holds it empties it.
  }

  @Override
  public List<String> addAliases(ProvisionedAccount account, List<String> aliases)
      throws IOException {
    Entry known = made.get(account.name().toLowerCase(Locale.ROOT));
    if (known != null && holdsAll(known, aliases)) {
      return List.of(); // made with the account a moment ago (and their entries with it)
    }
    SearchResultEntry current =
        entry(account.name())
            .orElseThrow(() ->
                new ProvisioningRefusedException(
                    "the account " + account.name() + " is not in the directory"));
    Set<String> taken = taken(aliases, Directory.dn(current));
    List<String> refused = new ArrayList<>();
    List<Modification> changes = new ArrayList<>();
    List<Address> added = new ArrayList<>();
    for (String alias : new LinkedHashSet<>(aliases)) {
      if (taken.contains(alias.toLowerCase(Locale.ROOT))) {
        refused.add(alias);
        continue;
      }
      added.add(Address.parse(alias).keeping(alias));
      for (Map.Entry<String, String> v : layout.aliasValues(alias).entrySet()) {
        if (!current.hasAttributeValue(v.getKey(), v.getValue())) {
          changes.add(new Modification(ModificationType.ADD, v.getKey(), v.getValue()));
        }
      }
    }
    directory.modify(Directory.dn(current), changes);
    snapshot.added(added.stream().map(Address::original).toList());
    String id = layout.accountId(current);
    for (Address alias : added) {
      shared.ensure(layout.aliasEntries(alias, id), "alias " + alias.original());
    }
    return refused;
  }

  @Override
  public List<Omission> omissions(Account account) {
    return layout.omissions(account);
  }
}
