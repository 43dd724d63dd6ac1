package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The changes that bring an entry the directory holds to what the backup says, under a policy:
 *
 * <ul>
 *   <li>{@code merge}: what the entry lacks is added (an attribute it does not have, an object
 *       class, an alias); every attribute it has keeps its values: the directory wins.
 *   <li>{@code replace}: the entry becomes what the backup makes of it: attributes set to the
 *       backup's values, the others removed (its DN, entryUUID and object classes stay; a missing
 *       class is added). Address values ({@code mail}, the alias attributes) are only added to, so
 *       that replacing an account never takes an address away from mail delivery.
 * </ul>
 *
 * None when the entry is already so: a re-run writes nothing.
 */
final class EntryChanges {

  private EntryChanges() {}

  static List<Modification> between(
      Entry current, Entry desired, boolean replace, Set<String> additive, SchemaRoom room) {
    List<Modification> changes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Attribute want : desired.getAttributes()) {
      String name = canonical(room, want.getName());
      seen.add(name.toLowerCase(Locale.ROOT));
      Attribute have = find(current, name, room);
      Set<String> wanted = new LinkedHashSet<>(List.of(want.getValues()));
      Set<String> held = have == null ? Set.of() : new LinkedHashSet<>(List.of(have.getValues()));
      boolean objectClass = name.equalsIgnoreCase("objectClass");
      if (objectClass || additive.contains(name.toLowerCase(Locale.ROOT)) || !replace) {
        if (have != null && !objectClass && !additive.contains(name.toLowerCase(Locale.ROOT))) {
          continue; // merge: the directory's values win
        }
        List<String> missing = missing(wanted, held, objectClass);
        if (!missing.isEmpty()) {
          changes.add(new Modification(ModificationType.ADD, name, missing.toArray(String[]::new)));
        }
      } else if (!wanted.equals(held)) {
        changes.add(
            new Modification(ModificationType.REPLACE, name, wanted.toArray(String[]::new)));
      }
    }
    if (replace) {
      for (Attribute have : current.getAttributes()) {
        String name = canonical(room, have.getName());
        String lower = name.toLowerCase(Locale.ROOT);
        if (!seen.contains(lower) && !additive.contains(lower)) {
          changes.add(new Modification(ModificationType.DELETE, name));
        }
      }
    }
    return changes;
  }

  /** Values wanted and not held; object classes compared without regard to case. */
  private static List<String> missing(Set<String> wanted, Set<String> held, boolean ignoreCase) {
    Set<String> heldKeys = new HashSet<>();
    for (String h : held) {
      heldKeys.add(ignoreCase ? h.toLowerCase(Locale.ROOT) : h);
    }
    List<String> missing = new ArrayList<>();
    for (String w : wanted) {
      if (!heldKeys.contains(ignoreCase ? w.toLowerCase(Locale.ROOT) : w)) {
        missing.add(w);
      }
    }
    return missing;
  }

  private static String canonical(SchemaRoom room, String name) {
    return room.canonical(name).orElse(name);
  }

  private static Attribute find(Entry entry, String canonical, SchemaRoom room) {
    for (Attribute a : entry.getAttributes()) {
      if (canonical(room, a.getName()).equalsIgnoreCase(canonical)) {
        return a;
      }
    }
    return null;
  }
}
