package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.TargetProvisioning.Omission;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Standard entries, as Postfix, Dovecot and SOGo set-ups on OpenLDAP read them:
 *
 * <ul>
 *   <li>an account is {@code uid=<address>,ou=people,<base>}, an {@code inetOrgPerson} with {@code
 *       mail}, {@code userPassword} (the backup's hash) and, for its aliases, {@code
 *       mailLocalAddress} of {@code inetLocalMailRecipient} (OpenLDAP's misc schema, from the LDAP
 *       mail-routing draft that Sendmail and Postfix alias maps query);
 *   <li>a list is {@code cn=<address>,ou=lists,<base>}, a {@code nisMailAlias} (RFC 2307) whose
 *       {@code rfc822MailMember} values are its members, inside the directory or not.
 * </ul>
 *
 * Domains and classes of service have no entries here. An account that is not active, or has no
 * password hash in the backup, is written without a password: nobody can log in as it.
 */
final class InetOrgPersonLayout extends Layout {

  static final String NAME = "inetorgperson";
  private static final List<String> ACCOUNT =
      List.of("top", "inetOrgPerson", "inetLocalMailRecipient");
  private static final Set<String> MANAGED = Set.of("uid", "mail");

  InetOrgPersonLayout(DN base, SchemaRoom room, int maxValueBytes) {
    super(base, room, maxValueBytes);
  }

  @Override
  String name() {
    return NAME;
  }

  @Override
  Optional<String> missingFromSchema() {
    for (String c : List.of("inetOrgPerson", "inetLocalMailRecipient", "nisMailAlias")) {
      if (!room.hasClass(c)) {
        return Optional.of(
            "the object class "
                + c
                + " (OpenLDAP's "
                + (c.equals("inetOrgPerson")
                    ? "inetorgperson"
                    : c.equals("nisMailAlias") ? "nis" : "misc")
                + " schema)");
      }
    }
    return Optional.empty();
  }

  @Override
  Set<String> managed() {
    return MANAGED;
  }

  @Override
  List<String> aliasAttributes() {
    return List.of("mailLocalAddress");
  }

  @Override
  List<String> accountClasses() {
    return ACCOUNT;
  }

  private DN people() {
    return under(base, "ou", "people");
  }

  private DN lists() {
    return under(base, "ou", "lists");
  }

  @Override
  DN accountDn(Address address) {
    return under(people(), "uid", address.toString());
  }

  @Override
  Filter accountByAddress(String address) {
    return Filter.createANDFilter(
        Filter.createEqualityFilter("objectClass", "inetOrgPerson"),
        Filter.createEqualityFilter("mail", address));
  }

  @Override
  Filter receiving(Collection<String> addresses) {
    List<Filter> any = new ArrayList<>();
    for (String a : addresses) {
      any.add(Filter.createEqualityFilter("mail", a));
      any.add(Filter.createEqualityFilter("mailLocalAddress", a));
      any.add(
          Filter.createANDFilter(
              Filter.createEqualityFilter("objectClass", "nisMailAlias"),
              Filter.createEqualityFilter("cn", a)));
    }
    return Filter.createORFilter(any);
  }

  @Override
  Filter receivers() {
    return Filter.createORFilter(
        Filter.createPresenceFilter("mail"),
        Filter.createPresenceFilter("mailLocalAddress"),
        Filter.createEqualityFilter("objectClass", "nisMailAlias"));
  }

  /** {@code cn} is a list's address (and a person's name: an extra word only makes a search). */
  @Override
  List<String> addressAttributes() {
    return List.of("mail", "mailLocalAddress", "cn");
  }

  private Entry unit(DN dn, String ou) {
    Entry e = new Entry(dn);
    e.addAttribute("objectClass", "top", "organizationalUnit");
    e.addAttribute("ou", ou);
    return e;
  }

  @Override
  List<Entry> containers(Address address) {
    return List.of(unit(people(), "people"));
  }

  @Override
  Entry account(Account account, String name, String id, @Nullable String cosId) {
    Address address = new Address(name.substring(0, name.lastIndexOf('@')), "");
    Entry e = new Entry(under(people(), "uid", name));
    e.addAttribute("objectClass", ACCOUNT);
    e.addAttribute("uid", name);
    e.addAttribute("mail", name);
    e.addAttribute("cn", commonName(account, address));
    e.addAttribute("sn", surname(account, address));
    Optional<String> hash = passwordHash(account);
    if (hash.isPresent() && "active".equals(account.status())) {
      e.addAttribute(PASSWORD, hash.get());
    }
    addCarried(e, ACCOUNT, account.attributes());
    return e;
  }

  /** Entries are named by their address. */
  @Override
  @Nullable Filter byId(String id) {
    return null;
  }

  /** And an account that is not active was written without its password. */
  @Override
  List<Omission> omissions(Account account) {
    List<Omission> left = new ArrayList<>(super.omissions(account));
    if (passwordHash(account).isPresent() && !"active".equals(account.status())) {
      left.add(
          new Omission(
              "account "
                  + account.name()
                  + " is "
                  + account.status()
                  + " in the backup; inetOrgPerson has no status, so it was written without its"
                  + " password (nobody can log in as it)",
              true));
    }
    return left;
  }

  @Override
  Map<String, String> aliasValues(String alias) {
    return Map.of("mailLocalAddress", alias);
  }

  @Override
  List<Entry> aliasEntries(Address alias, String accountId) {
    return List.of();
  }

  @Override
  List<Entry> domain(Domain domain) {
    return List.of();
  }

  @Override
  List<Entry> classOfService(ClassOfService cos) {
    return List.of();
  }

  @Override
  @Nullable String cosId(Entry cos) {
    return null;
  }

  @Override
  DN cosDn(String name) {
    return base;
  }

  @Override
  List<Entry> list(DistributionList list) {
    Entry e = new Entry(under(lists(), "cn", list.address()));
    e.addAttribute("objectClass", "top", "nisMailAlias");
    e.addAttribute("cn", list.address());
    if (!list.members().isEmpty()) {
      e.addAttribute("rfc822MailMember", list.members());
    }
    return List.of(unit(lists(), "lists"), e);
  }

  @Override
  String memberAttribute() {
    return "rfc822MailMember";
  }

  @Override
  String accountId(Entry entry) {
    return entry.getAttributeValue("mail");
  }

  @Override
  Account read(Entry entry, Function<String, @Nullable String> cosName) {
    String name = entry.getAttributeValue("mail");
    String[] aliases = entry.getAttributeValues("mailLocalAddress");
    return new Account(
        name,
        name,
        name.substring(name.lastIndexOf('@') + 1),
        null,
        entry.hasAttribute(PASSWORD) ? "active" : "locked",
        false,
        aliases == null ? List.of() : List.of(aliases),
        comparable(entry));
  }

  @Override
  Account expected(Account backup) {
    Entry desired = account(backup, backup.name(), backup.id(), null);
    return new Account(
        backup.name(),
        backup.name(),
        backup.domain(),
        null,
        desired.hasAttribute(PASSWORD) ? "active" : "locked",
        false,
        backup.aliases(),
        comparable(desired));
  }
}
