package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.SearchResultEntry;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Every address the directory receives mail for under the base, read in one search and kept for a
 * minute: an address not in it needs no search to be known free, so a new account costs one write
 * instead of a lookup, an alias check and a write. An address in it is looked up as before. A
 * directory too large for the snapshot (or one that limits the bind DN's searches) is asked each
 * time. What another writer adds within the minute is found by the write itself (an entry that
 * exists is refused, then found and updated) except an alias given to two entries in that minute.
 */
final class AddressSnapshot {

  static final int MAX_ENTRIES = 200_000;
  private static final long FRESH_NANOS = 60_000_000_000L;

  private final Directory directory;
  private final Layout layout;
  private Set<String> addresses;
  private long takenAt;

  AddressSnapshot(Directory directory, Layout layout) {
    this.directory = directory;
    this.layout = layout;
  }

  /** False only when the address is surely not received by any entry; true when it may be. */
  synchronized boolean mayBeTaken(Collection<String> wanted) {
    Set<String> known = current();
    if (known == null) {
      return true;
    }
    for (String a : wanted) {
      if (known.contains(a.toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  /** Addresses an entry now receives, written by this instance. */
  synchronized void added(Collection<String> written) {
    if (addresses != null) {
      written.forEach(a -> addresses.add(a.toLowerCase(Locale.ROOT)));
    }
  }

  private Set<String> current() {
    if (addresses != null && System.nanoTime() - takenAt < FRESH_NANOS) {
      return addresses;
    }
    takenAt = System.nanoTime();
    try {
      List<String> attributes = layout.addressAttributes();
      Set<String> read = new HashSet<>();
      List<SearchResultEntry> entries =
          directory.searchAll(
              layout.base, layout.receivers(), MAX_ENTRIES, attributes.toArray(String[]::new));
      if (entries == null) {
        addresses = null; // too many, or limited: ask each time
        return null;
      }
      for (SearchResultEntry e : entries) {
        for (Attribute a : e.getAttributes()) {
          for (String v : a.getValues()) {
            read.add(v.toLowerCase(Locale.ROOT));
          }
        }
      }
      addresses = read;
    } catch (IOException e) {
      addresses = null;
    }
    return addresses;
  }
}
