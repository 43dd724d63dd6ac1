package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * The entries accounts live among: domains with their containers, classes of service, lists. Each
 * is added when missing and kept when there (a list gets the members it lacks).
 */
final class SharedEntries {

  private final Directory directory;
  private final Layout layout;
  private final AddressSnapshot snapshot;

  /** Entries known to exist (containers shared by thousands of accounts are read once). */
  private final Set<DN> present = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final Map<String, Optional<String>> cosIds = new HashMap<>();

  SharedEntries(Directory directory, Layout layout, AddressSnapshot snapshot) {
    this.directory = directory;
    this.layout = layout;
    this.snapshot = snapshot;
  }

  /** Adds each entry that is not there yet, parents first. */
  void ensure(List<Entry> entries, String what) throws IOException {
    for (Entry e : entries) {
      DN dn = Directory.dn(e);
      if (present.contains(dn)) {
        continue;
      }
      // Accounts are provisioned several at once: two of one domain must not both add its
      // container, where the second would be refused as already there.
      synchronized (present) {
        if (!present.contains(dn)) {
          if (directory.get(dn, "1.1").isEmpty()) {
            layout.checkSizes(e, what);
            directory.add(e);
          }
          present.add(dn);
        }
      }
    }
  }

  boolean ensureDomain(Domain domain) throws IOException {
    Address.parse("postmaster@" + domain.name()); // a domain no entry can be named by fails here
    List<Entry> entries = layout.domain(domain);
    ensure(entries, "domain " + domain.name());
    return !entries.isEmpty();
  }

  boolean ensureClassOfService(ClassOfService cos) throws IOException {
    List<Entry> entries = layout.classOfService(cos);
    ensure(entries, "class of service " + cos.name());
    synchronized (cosIds) {
      cosIds.remove(cos.name());
    }
    return !entries.isEmpty();
  }

  @Nullable String cosId(@Nullable String name) throws IOException {
    if (name == null) {
      return null;
    }
    synchronized (cosIds) {
      Optional<String> known = cosIds.get(name);
      if (known != null) {
        return known.orElse(null);
      }
    }
    Optional<String> id =
        directory.get(layout.cosDn(name), "zimbraId").map(layout::cosId).filter(x -> x != null);
    synchronized (cosIds) {
      cosIds.put(name, id);
    }
    return id.orElse(null);
  }

  boolean ensureList(DistributionList list) throws IOException {
    Address.parse(list.address());
    List<Entry> entries = layout.list(list);
    Entry wanted = entries.get(entries.size() - 1);
    ensure(entries.subList(0, entries.size() - 1), "list " + list.address());
    layout.checkSizes(wanted, "list " + list.address());
    if (!snapshot.mayBeTaken(List.of(list.address()))) {
      try {
        directory.add(wanted); // surely new: no read first
        snapshot.added(List.of(list.address()));
        return true;
      } catch (ProvisioningRefusedException e) {
        if (!Directory.alreadyExists(e)) {
          throw e;
        }
      }
    }
    Optional<Entry> held = directory.get(Directory.dn(wanted), "*");
    if (held.isEmpty()) {
      directory.add(wanted);
      snapshot.added(List.of(list.address()));
      return true;
    }
    String[] classes = wanted.getObjectClassValues();
    if (!held.get().hasObjectClass(classes[1])) {
      throw new ProvisioningRefusedException(
          "the list "
              + list.address()
              + " would be "
              + wanted.getDN()
              + ", which the directory holds as another kind of entry");
    }
    Set<String> members = new HashSet<>();
    String[] have = held.get().getAttributeValues(layout.memberAttribute());
    for (String m : have == null ? new String[0] : have) {
      members.add(m.toLowerCase(Locale.ROOT));
    }
    List<String> missing = new ArrayList<>();
    for (String m : list.members()) {
      if (members.add(m.toLowerCase(Locale.ROOT))) {
        missing.add(m);
      }
    }
    if (!missing.isEmpty()) {
      directory.modify(
          Directory.dn(wanted),
          List.of(
              new Modification(
                  ModificationType.ADD, layout.memberAttribute(), missing.toArray(String[]::new))));
    }
    return true;
  }
}
