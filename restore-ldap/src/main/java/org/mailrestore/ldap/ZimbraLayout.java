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
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Zimbra's own entries, where Zimbra's provisioning puts them, so that a Zimbra or Carbonio
 * directory receives what its own restore would have written:
 *
 * <ul>
 *   <li>a domain is {@code dc=example,dc=org} under the base ({@code dcObject}, {@code
 *       organization}, {@code zimbraDomain}) with {@code ou=people} below it;
 *   <li>an account is {@code uid=<local>,ou=people,<domain>} ({@code inetOrgPerson}, {@code
 *       zimbraAccount}) with {@code zimbraId}, {@code zimbraMailDeliveryAddress}, {@code
 *       zimbraAccountStatus}, {@code zimbraCOSId}, {@code userPassword}; its aliases are {@code
 *       zimbraMailAlias} and {@code mail} values, each with a {@code zimbraAlias} entry naming the
 *       account's id;
 *   <li>a class of service is {@code cn=<name>,cn=cos,cn=zimbra,<base>} ({@code zimbraCOS});
 *   <li>a list is {@code uid=<local>,ou=people,<domain>} ({@code zimbraDistributionList}) whose
 *       members are {@code zimbraMailForwardingAddress} values.
 * </ul>
 *
 * An account without a password hash in the backup is written {@code locked}. The old server's
 * routing ({@code zimbraMailHost}, {@code zimbraMailTransport}) is never copied: the new server's
 * provisioning sets it.
 */
final class ZimbraLayout extends Layout {

  static final String NAME = "zimbra";
  private static final List<String> ACCOUNT = List.of("top", "inetOrgPerson", "zimbraAccount");
  private static final List<String> COS = List.of("top", "zimbraCOS");
  private static final List<String> DOMAIN =
      List.of("top", "dcObject", "organization", "zimbraDomain");
  private static final List<String> LIST =
      List.of("top", "zimbraDistributionList", "zimbraMailRecipient");
  private static final Set<String> MANAGED =
      Set.of(
          "uid",
          "mail",
          "zimbraid",
          "zimbramaildeliveryaddress",
          "zimbramailalias",
          "zimbraaccountstatus",
          "zimbramailstatus",
          "zimbracosid",
          "zimbramailhost",
          "zimbramailtransport",
          "zimbradomainname",
          "zimbramailforwardingaddress",
          "zimbraaliastargetid",
          "dc",
          "o");

  ZimbraLayout(DN base, SchemaRoom room, int maxValueBytes) {
    super(base, room, maxValueBytes);
  }

  @Override
  String name() {
    return NAME;
  }

  @Override
  Optional<String> missingFromSchema() {
    for (String c : List.of("zimbraAccount", "zimbraCOS", "zimbraDomain", "zimbraAlias")) {
      if (!room.hasClass(c)) {
        return Optional.of(
            "the object class "
                + c
                + " (Zimbra's schema: on OpenLDAP load the subset in"
                + " docs/ldap/zimbra-subset.ldif)");
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
    return List.of("zimbraMailAlias");
  }

  @Override
  List<String> accountClasses() {
    return ACCOUNT;
  }

  private DN people(String domain) {
    return under(domainDn(domain), "ou", "people");
  }

  @Override
  DN accountDn(Address address) {
    return under(people(address.domain()), "uid", address.local());
  }

  @Override
  Filter accountByAddress(String address) {
    return Filter.createANDFilter(
        Filter.createEqualityFilter("objectClass", "zimbraAccount"),
        Filter.createEqualityFilter("zimbraMailDeliveryAddress", address));
  }

  @Override
  Filter receiving(Collection<String> addresses) {
    List<Filter> any = new ArrayList<>();
    for (String a : addresses) {
      any.add(Filter.createEqualityFilter("zimbraMailDeliveryAddress", a));
      any.add(Filter.createEqualityFilter("zimbraMailAlias", a));
      any.add(Filter.createEqualityFilter("mail", a));
    }
    return Filter.createORFilter(any);
  }

  @Override
  Filter receivers() {
    return Filter.createORFilter(
        Filter.createPresenceFilter("mail"),
        Filter.createPresenceFilter("zimbraMailDeliveryAddress"),
        Filter.createPresenceFilter("zimbraMailAlias"));
  }

  @Override
  List<String> addressAttributes() {
    return List.of("mail", "zimbraMailDeliveryAddress", "zimbraMailAlias");
  }

  @Override
  List<Entry> containers(Address address) {
    List<Entry> above = new ArrayList<>(domainChain(address.domain(), null));
    above.add(unit(people(address.domain())));
    return above;
  }

  /** The dc entries from the top down to the domain's; the domain's own is a zimbraDomain. */
  private List<Entry> domainChain(String domain, @Nullable Domain record) {
    List<Entry> chain = new ArrayList<>();
    String[] labels = domain.split("\\.");
    DN dn = base;
    for (int i = labels.length - 1; i >= 0; i--) {
      dn = under(dn, "dc", labels[i]);
      Entry e = new Entry(dn);
      e.addAttribute("dc", labels[i]);
      if (i == 0) {
        e.addAttribute("objectClass", DOMAIN);
        e.addAttribute("o", domain);
        e.addAttribute("zimbraDomainName", domain);
        e.addAttribute("zimbraId", nameId("domain", domain));
        if (record != null) {
          addCarried(e, DOMAIN, record.attributes());
        }
      } else {
        e.addAttribute("objectClass", "top", "dcObject", "organization");
        e.addAttribute("o", labels[i]);
      }
      chain.add(e);
    }
    return chain;
  }

  private static Entry unit(DN dn) {
    Entry e = new Entry(dn);
    e.addAttribute("objectClass", "top", "organizationalUnit");
    e.addAttribute("ou", dn.getRDN().getAttributeValues()[0]);
    return e;
  }

  @Override
  Entry account(Account account, String name, String id, @Nullable String cosId) {
    Address address = addressOf(name);
    Entry e = new Entry(accountDn(address));
    e.addAttribute("objectClass", ACCOUNT);
    e.addAttribute("uid", address.local());
    e.addAttribute("mail", name);
    e.addAttribute("zimbraMailDeliveryAddress", name);
    e.addAttribute("zimbraId", id);
    e.addAttribute("zimbraMailStatus", "enabled");
    Optional<String> hash = passwordHash(account);
    e.addAttribute(
        "zimbraAccountStatus",
        hash.isEmpty() && "active".equals(account.status()) ? "locked" : account.status());
    hash.ifPresent(h -> e.addAttribute(PASSWORD, h));
    if (cosId != null) {
      e.addAttribute("zimbraCOSId", cosId);
    }
    e.addAttribute("cn", commonName(account, address));
    e.addAttribute("sn", surname(account, address));
    addCarried(e, ACCOUNT, account.attributes());
    return e;
  }

  private static Address addressOf(String name) {
    int at = name.lastIndexOf('@');
    return new Address(name.substring(0, at), name.substring(at + 1));
  }

  @Override
  Map<String, String> aliasValues(String alias) {
    return Map.of("zimbraMailAlias", alias, "mail", alias);
  }

  @Override
  List<Entry> aliasEntries(Address alias, String accountId) {
    List<Entry> entries = new ArrayList<>(containers(alias));
    Entry e = new Entry(accountDn(alias));
    e.addAttribute("objectClass", "top", "zimbraAlias");
    e.addAttribute("uid", alias.local());
    e.addAttribute("zimbraId", nameId("alias", alias.toString()));
    e.addAttribute("zimbraAliasTargetId", accountId);
    entries.add(e);
    return entries;
  }

  @Override
  List<Entry> domain(Domain domain) {
    return domainChain(domain.name().toLowerCase(java.util.Locale.ROOT), domain);
  }

  /** Zimbra's configuration lives under {@code cn=zimbra}; its classes of service in cn=cos. */
  private DN cosContainer() {
    return under(under(base, "cn", "zimbra"), "cn", "cos");
  }

  @Override
  DN cosDn(String name) {
    return under(cosContainer(), "cn", name);
  }

  @Override
  List<Entry> classOfService(ClassOfService cos) {
    Entry zimbra = new Entry(under(base, "cn", "zimbra"));
    zimbra.addAttribute("objectClass", "top", "organizationalRole");
    zimbra.addAttribute("cn", "zimbra");
    Entry container = new Entry(cosContainer());
    container.addAttribute("objectClass", "top", "organizationalRole");
    container.addAttribute("cn", "cos");
    Entry e = new Entry(cosDn(cos.name()));
    e.addAttribute("objectClass", COS);
    e.addAttribute("cn", cos.name());
    e.addAttribute("zimbraId", nameId("cos", cos.name()));
    addCarried(e, COS, cos.attributes());
    return List.of(zimbra, container, e);
  }

  @Override
  @Nullable String cosId(Entry cos) {
    return cos.getAttributeValue("zimbraId");
  }

  @Override
  List<Entry> list(DistributionList list) {
    String address = list.address().toLowerCase(java.util.Locale.ROOT);
    Address a = addressOf(address);
    List<Entry> entries = new ArrayList<>(containers(a));
    Entry e = new Entry(accountDn(a));
    e.addAttribute("objectClass", LIST);
    e.addAttribute("uid", a.local());
    e.addAttribute("mail", list.address());
    e.addAttribute("zimbraMailAlias", list.address());
    e.addAttribute("zimbraId", nameId("list", address));
    e.addAttribute("zimbraMailStatus", "enabled");
    if (list.displayName() != null && !list.displayName().isBlank()) {
      e.addAttribute("displayName", list.displayName());
    }
    if (!list.members().isEmpty()) {
      e.addAttribute("zimbraMailForwardingAddress", list.members());
    }
    addCarried(e, LIST, list.attributes());
    entries.add(e);
    return entries;
  }

  @Override
  String memberAttribute() {
    return "zimbraMailForwardingAddress";
  }

  @Override
  Filter byId(String id) {
    return Filter.createEqualityFilter("zimbraId", id);
  }

  @Override
  String accountId(Entry entry) {
    return entry.getAttributeValue("zimbraId");
  }

  @Override
  Account read(Entry entry, Function<String, @Nullable String> cosName) {
    String name = entry.getAttributeValue("zimbraMailDeliveryAddress");
    String cosId = entry.getAttributeValue("zimbraCOSId");
    String[] aliases = entry.getAttributeValues("zimbraMailAlias");
    return new Account(
        entry.getAttributeValue("zimbraId"),
        name,
        name.substring(name.lastIndexOf('@') + 1),
        cosId == null ? null : cosName.apply(cosId),
        entry.getAttributeValue("zimbraAccountStatus"),
        false,
        aliases == null ? List.of() : List.of(aliases),
        comparable(entry));
  }

  @Override
  Account expected(Account backup) {
    Entry desired = account(backup, backup.name(), backup.id(), null);
    return new Account(
        backup.id(),
        backup.name(),
        backup.domain(),
        backup.cos(),
        desired.getAttributeValue("zimbraAccountStatus"),
        false,
        backup.aliases(),
        comparable(desired));
  }
}
