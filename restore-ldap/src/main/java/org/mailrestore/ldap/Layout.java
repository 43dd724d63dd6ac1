package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.RDN;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.destination.TargetProvisioning.Omission;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * How backup records become directory entries, one subclass per {@code --ldap-schema}: where each
 * entry lives, its object classes, the attributes set from the record, and the backup's other
 * attributes where the directory's schema has room for them. docs/ldap-provisioning.md has the
 * tables.
 */
abstract sealed class Layout permits ZimbraLayout, InetOrgPersonLayout {

  static final String PASSWORD = "userPassword";

  /** A password as the backup holds it: a hash with its scheme ({SSHA}, {CRYPT}...). */
  private static final Pattern HASH = Pattern.compile("\\{[A-Za-z0-9][A-Za-z0-9._-]*}\\S+");

  protected final DN base;
  protected final SchemaRoom room;
  private final int maxValueBytes;

  Layout(DN base, SchemaRoom room, int maxValueBytes) {
    this.base = base;
    this.room = room;
    this.maxValueBytes = maxValueBytes;
  }

  /** The schema's name: {@code zimbra} or {@code inetorgperson}. */
  abstract String name();

  /**
   * @return what the directory's schema lacks for this layout, or empty when it has it all
   */
  abstract Optional<String> missingFromSchema();

  /** Lower-case names of the attributes set from the account record, never copied. */
  abstract Set<String> managed();

  /** The attributes that hold an account's aliases: the alias step's, kept by replace. */
  abstract List<String> aliasAttributes();

  abstract List<String> accountClasses();

  abstract DN accountDn(Address address);

  /** Finds the account whose address this is. */
  abstract Filter accountByAddress(String address);

  /** Finds any entry that receives mail for one of these addresses (account, alias, list). */
  abstract Filter receiving(Collection<String> addresses);

  /** Finds every entry that receives mail (for {@link AddressSnapshot}). */
  abstract Filter receivers();

  /** The attributes that hold the addresses an entry receives mail for. */
  abstract List<String> addressAttributes();

  /** The entries an account of this address needs above it, parents first. */
  abstract List<Entry> containers(Address address);

  /** The account's entry, without its aliases. */
  abstract Entry account(Account account, String name, String id, @Nullable String cosId);

  /** The values that give an account entry this alias. */
  abstract Map<String, String> aliasValues(String alias);

  /**
   * The entries an alias needs of its own (Zimbra's alias entries), beside the account's values.
   */
  abstract List<Entry> aliasEntries(Address alias, String accountId);

  /** The domain's entries, parents first; empty when the layout holds no domains. */
  abstract List<Entry> domain(Domain domain);

  /** The class of service's entries, parents first; empty when the layout holds none. */
  abstract List<Entry> classOfService(ClassOfService cos);

  /** A class of service's id as accounts name it, or null when the layout holds none. */
  abstract @Nullable String cosId(Entry cos);

  abstract DN cosDn(String name);

  /** The list's entries, parents first (the list last). */
  abstract List<Entry> list(DistributionList list);

  /** The attribute that holds a list's members. */
  abstract String memberAttribute();

  /** Finds the entry with this id, or null when the layout names entries by address only. */
  abstract @Nullable Filter byId(String id);

  /** The id grants and the id map name the account by. */
  abstract String accountId(Entry entry);

  /** The account as the entry holds it, for verify. */
  abstract Account read(Entry entry, Function<String, @Nullable String> cosName);

  /** The backup's account as this layout keeps it: what verify compares the entry with. */
  abstract Account expected(Account backup);

  // ---- shared by both layouts ----

  /** A stable id for something the backup names by name only (a domain, a class of service). */
  static String nameId(String kind, String name) {
    return UUID.nameUUIDFromBytes(
            (kind + ":" + name.toLowerCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  DN under(DN parent, String attribute, String value) {
    return new DN(new RDN(attribute, value), parent);
  }

  /** {@code dc=example,dc=org} under the base, for a domain. */
  DN domainDn(String domain) {
    DN dn = base;
    String[] labels = domain.split("\\.");
    for (int i = labels.length - 1; i >= 0; i--) {
      dn = under(dn, "dc", labels[i]);
    }
    return dn;
  }

  /** The password hash the backup holds for the account, written as it is. */
  static Optional<String> passwordHash(Account account) {
    for (Map.Entry<String, String> a : account.attributes().entrySet()) {
      if (a.getKey().equalsIgnoreCase(PASSWORD) && HASH.matcher(a.getValue()).matches()) {
        return Optional.of(a.getValue());
      }
    }
    return Optional.empty();
  }

  static boolean hasPasswordAttribute(Account account) {
    return account.attributes().keySet().stream().anyMatch(k -> k.equalsIgnoreCase(PASSWORD));
  }

  /**
   * A password hash as verify shows it: a fingerprint, never the hash (a report is read by more
   * people than the directory's administrator).
   */
  static String fingerprint(String hash) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(hash.getBytes(StandardCharsets.UTF_8));
      return "(a hash, sha256 " + HexFormat.of().formatHex(d, 0, 6) + ")";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The name an entry is known by (cn): the backup's, else its display name, else the address. */
  static String commonName(Account account, Address address) {
    return first(account, "cn", first(account, "displayName", address.local()));
  }

  /** The surname (sn, which person entries must have): the backup's, else the local part. */
  static String surname(Account account, Address address) {
    return first(account, "sn", address.local());
  }

  private static String first(Account account, String attribute, String otherwise) {
    for (Map.Entry<String, String> a : account.attributes().entrySet()) {
      if (a.getKey().equalsIgnoreCase(attribute) && !a.getValue().isBlank()) {
        return a.getValue();
      }
    }
    return otherwise;
  }

  /**
   * Adds the backup's attributes the schema has room for in these classes, by the schema's names;
   * managed ones (set from the record) and the password are left to the layout.
   */
  void addCarried(Entry entry, List<String> classes, Map<String, String> attributes) {
    for (Map.Entry<String, String> a : new TreeMap<>(attributes).entrySet()) {
      String key = a.getKey();
      if (managed().contains(key.toLowerCase(Locale.ROOT)) || key.equalsIgnoreCase(PASSWORD)) {
        continue;
      }
      Optional<String> canonical = room.canonical(key);
      if (canonical.isPresent()
          && room.allows(classes, key)
          && !entry.hasAttribute(canonical.get())
          && !a.getValue().isEmpty()) {
        entry.addAttribute(canonical.get(), a.getValue());
      }
    }
  }

  /**
   * What this layout leaves out of an account: the attributes with no room (reported once each),
   * and a password it could not write (reported for the account).
   */
  List<Omission> omissions(Account account) {
    List<Omission> left =
        new ArrayList<>(leftOut(accountClasses(), account.attributes(), "account"));
    String name = account.name();
    if (!hasPasswordAttribute(account)) {
      left.add(
          new Omission(
              "account " + name + " was made locked: the backup holds no password hash for it",
              true));
    } else if (passwordHash(account).isEmpty()) {
      left.add(
          new Omission(
              "account "
                  + name
                  + " was made locked: its password in the backup is not a {SCHEME} hash, so it"
                  + " was not written",
              true));
    }
    return left;
  }

  /** The backup's attributes with no room in these classes: reported once each. */
  List<Omission> leftOut(List<String> classes, Map<String, String> attributes, String what) {
    List<Omission> left = new ArrayList<>();
    for (String key : new TreeSet<>(attributes.keySet())) {
      if (managed().contains(key.toLowerCase(Locale.ROOT)) || key.equalsIgnoreCase(PASSWORD)) {
        continue;
      }
      if (room.canonical(key).isEmpty() || !room.allows(classes, key)) {
        left.add(
            new Omission(
                "the directory's "
                    + name()
                    + " "
                    + what
                    + " entries have no room for the attribute "
                    + key
                    + " ("
                    + String.join(", ", classes)
                    + "); left out",
                false));
      }
    }
    return left;
  }

  /** An entry's attributes as verify compares them: not the managed ones, the password hidden. */
  Map<String, String> comparable(Entry entry) {
    Map<String, String> kept = new TreeMap<>();
    for (Attribute a : entry.getAttributes()) {
      String name = room.canonical(a.getName()).orElse(a.getName());
      String lower = name.toLowerCase(Locale.ROOT);
      if (name.equalsIgnoreCase(PASSWORD)) {
        kept.put(PASSWORD, fingerprint(a.getValue()));
        continue;
      }
      if (lower.equals("objectclass")
          || managed().contains(lower)
          || aliasAttributes().stream().anyMatch(x -> x.equalsIgnoreCase(name))) {
        continue;
      }
      List<String> values = new ArrayList<>(List.of(a.getValues()));
      values.sort(null);
      kept.put(name, String.join("\n", values));
    }
    return kept;
  }

  /**
   * @throws ProvisioningRefusedException when a value is larger than the directory is given
   */
  void checkSizes(Entry entry, String what) throws ProvisioningRefusedException {
    for (Attribute a : entry.getAttributes()) {
      for (byte[] v : a.getValueByteArrays()) {
        if (v.length > maxValueBytes) {
          throw new ProvisioningRefusedException(
              what
                  + ": its attribute "
                  + a.getName()
                  + " is "
                  + v.length
                  + " bytes, more than the directory is given ("
                  + maxValueBytes
                  + " bytes, --ldap-max-value-size)");
        }
      }
    }
  }
}
