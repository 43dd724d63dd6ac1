package org.mailrestore.dav;

import ezvcard.VCard;
import ezvcard.VCardVersion;
import ezvcard.io.text.VCardReader;
import ezvcard.io.text.VCardWriter;
import ezvcard.parameter.AddressType;
import ezvcard.parameter.EmailType;
import ezvcard.parameter.TelephoneType;
import ezvcard.property.Address;
import ezvcard.property.Anniversary;
import ezvcard.property.Birthday;
import ezvcard.property.Email;
import ezvcard.property.FormattedName;
import ezvcard.property.Impp;
import ezvcard.property.Kind;
import ezvcard.property.Member;
import ezvcard.property.Nickname;
import ezvcard.property.Note;
import ezvcard.property.Organization;
import ezvcard.property.RawProperty;
import ezvcard.property.StructuredName;
import ezvcard.property.Telephone;
import ezvcard.property.Title;
import ezvcard.property.Uid;
import ezvcard.property.Url;
import ezvcard.util.PartialDate;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Zimbra contact as a vCard 4.0 (RFC 6350) and back, by the table in docs/dav-mapping.md: names,
 * e-mails, phones, addresses, company, title, birthday, anniversary, notes, URLs, nickname and
 * instant messaging addresses become their vCard properties, each with the parameter {@code
 * X-MAILRESTORE-FIELD=<field>}; a group ({@code type=group}) becomes {@code KIND:group} with a
 * {@code MEMBER} for each address of its {@code dlist}; every other field travels as {@code
 * X-MAILRESTORE-OTHER;X-MAILRESTORE-FIELD=<field>:<value>}, so a card read back gives the same
 * fields.
 */
public final class ContactCard {

  /** The extended property that carries a field no vCard property holds. */
  static final String OTHER_FIELD = "X-MAILRESTORE-OTHER";

  /** Zimbra's telephone fields and their vCard types. */
  private static final Map<String, List<TelephoneType>> PHONES = new LinkedHashMap<>();

  /** Zimbra's address field prefixes and their vCard types (none for "other"). */
  private static final Map<String, AddressType> ADDRESSES = new LinkedHashMap<>();

  /** Zimbra's URL fields and their vCard types. */
  private static final Map<String, String> URLS = new LinkedHashMap<>();

  static {
    PHONES.put("homePhone", List.of(TelephoneType.HOME, TelephoneType.VOICE));
    PHONES.put("homePhone2", List.of(TelephoneType.HOME, TelephoneType.VOICE));
    PHONES.put("workPhone", List.of(TelephoneType.WORK, TelephoneType.VOICE));
    PHONES.put("workPhone2", List.of(TelephoneType.WORK, TelephoneType.VOICE));
    PHONES.put("mobilePhone", List.of(TelephoneType.CELL));
    PHONES.put("pager", List.of(TelephoneType.PAGER));
    PHONES.put("homeFax", List.of(TelephoneType.HOME, TelephoneType.FAX));
    PHONES.put("workFax", List.of(TelephoneType.WORK, TelephoneType.FAX));
    PHONES.put("carPhone", List.of(TelephoneType.CAR));
    PHONES.put("otherPhone", List.of(TelephoneType.VOICE));
    PHONES.put("otherFax", List.of(TelephoneType.FAX));
    PHONES.put("companyPhone", List.of(TelephoneType.WORK, TelephoneType.get("x-company")));
    PHONES.put("assistantPhone", List.of(TelephoneType.get("x-assistant")));
    PHONES.put("callbackPhone", List.of(TelephoneType.get("x-callback")));
    ADDRESSES.put("home", AddressType.HOME);
    ADDRESSES.put("work", AddressType.WORK);
    ADDRESSES.put("other", null);
    URLS.put("homeURL", "home");
    URLS.put("workURL", "work");
    URLS.put("otherURL", null);
  }

  private static final Pattern EMAIL = Pattern.compile("email([2-9]|[1-9][0-9])?");
  private static final Pattern WORK_EMAIL = Pattern.compile("workEmail[1-9][0-9]?");
  private static final Pattern IM = Pattern.compile("imAddress[1-9][0-9]?");
  private static final Pattern DATE = Pattern.compile("(\\d{4}|-)-\\d{2}-\\d{2}");

  private ContactCard() {}

  /**
   * The card of a contact.
   *
   * @param uid the card's UID: stable for the item, so that a re-run writes the same resource
   * @param fields the contact's Zimbra fields (its revision's attributes)
   */
  public static VCard toCard(String uid, Map<String, String> fields) {
    VCard card = new VCard(VCardVersion.V4_0);
    card.setUid(new Uid(uid));
    Map<String, String> rest = new LinkedHashMap<>(fields);
    rest.keySet().removeIf(k -> k.startsWith("_")); // the source's own keys (raw metadata)
    StructuredName n = new StructuredName();
    n.setFamily(rest.remove("lastName"));
    n.setGiven(rest.remove("firstName"));
    addIfPresent(n.getAdditionalNames(), rest.remove("middleName"));
    addIfPresent(n.getPrefixes(), rest.remove("namePrefix"));
    addIfPresent(n.getSuffixes(), rest.remove("nameSuffix"));
    card.setStructuredName(n);
    String full = rest.remove("fullName");
    if (full != null) {
      card.setFormattedName(new FormattedName(full));
    } else {
      // FN is required in vCard 4.0; Zimbra's own fallback order.
      card.setFormattedName(new FormattedName(formattedName(n, fields)));
      card.getFormattedName().addParameter("X-MAILRESTORE-DERIVED", "true");
    }
    if ("group".equals(rest.get("type"))) {
      rest.remove("type");
      card.setKind(Kind.group());
      String dlist = rest.get("dlist");
      if (dlist != null) {
        List<String> members = new ArrayList<>();
        for (String member : dlist.split(",")) {
          if (!member.isBlank()) {
            members.add(member.strip());
            card.addMember(new Member("mailto:" + member.strip()));
          }
        }
        if (String.join(", ", members).equals(dlist)) {
          rest.remove("dlist"); // else it also travels as it is, to come back the same
        }
      }
    }
    String nickname = rest.remove("nickname");
    if (nickname != null) {
      Nickname nick = new Nickname();
      nick.getValues().add(nickname);
      card.setNickname(nick);
    }
    String company = rest.remove("company");
    String department = rest.remove("department");
    if (company != null || department != null) {
      Organization org = new Organization();
      org.getValues().add(company == null ? "" : company);
      if (department != null) {
        org.getValues().add(department);
      }
      card.setOrganization(org);
    }
    String title = rest.remove("jobTitle");
    if (title != null) {
      card.addTitle(new Title(title));
    }
    for (String key : List.copyOf(rest.keySet())) {
      String value = rest.get(key);
      if (EMAIL.matcher(key).matches()) {
        Email e = card.addEmail(value);
        e.getParameters().put(FIELD_PARAMETER, key);
        if (key.equals("email")) {
          e.setPref(1);
        }
        rest.remove(key);
      } else if (WORK_EMAIL.matcher(key).matches()) {
        Email e = card.addEmail(value, EmailType.WORK);
        e.getParameters().put(FIELD_PARAMETER, key);
        rest.remove(key);
      } else if (IM.matcher(key).matches()) {
        Impp impp = new Impp(value.contains(":") ? value : "x-im:" + value);
        impp.getParameters().put(FIELD_PARAMETER, key);
        card.addImpp(impp);
        rest.remove(key);
      }
    }
    for (Map.Entry<String, List<TelephoneType>> p : PHONES.entrySet()) {
      String value = rest.remove(p.getKey());
      if (value != null) {
        Telephone tel = new Telephone(value);
        p.getValue().forEach(t -> tel.getTypes().add(t));
        tel.getParameters().put(FIELD_PARAMETER, p.getKey());
        card.addTelephoneNumber(tel);
      }
    }
    for (Map.Entry<String, AddressType> a : ADDRESSES.entrySet()) {
      String prefix = a.getKey();
      String street = rest.remove(prefix + "Street");
      String city = rest.remove(prefix + "City");
      String state = rest.remove(prefix + "State");
      String postal = rest.remove(prefix + "PostalCode");
      String country = rest.remove(prefix + "Country");
      if (street != null || city != null || state != null || postal != null || country != null) {
        Address adr = new Address();
        adr.setStreetAddress(street);
        adr.setLocality(city);
        adr.setRegion(state);
        adr.setPostalCode(postal);
        adr.setCountry(country);
        if (a.getValue() != null) {
          adr.getTypes().add(a.getValue());
        }
        adr.getParameters().put(FIELD_PARAMETER, prefix);
        card.addAddress(adr);
      }
    }
    for (Map.Entry<String, String> u : URLS.entrySet()) {
      String value = rest.remove(u.getKey());
      if (value != null) {
        Url url = new Url(value);
        if (u.getValue() != null) {
          url.setType(u.getValue());
        }
        url.getParameters().put(FIELD_PARAMETER, u.getKey());
        card.addUrl(url);
      }
    }
    String birthday = rest.get("birthday");
    if (birthday != null && DATE.matcher(birthday).matches()) {
      card.setBirthday(
          birthday.startsWith("-")
              ? new Birthday(date(birthday))
              : new Birthday(java.time.LocalDate.parse(birthday)));
      rest.remove("birthday");
    }
    String anniversary = rest.get("anniversary");
    if (anniversary != null && DATE.matcher(anniversary).matches()) {
      card.setAnniversary(
          anniversary.startsWith("-")
              ? new Anniversary(date(anniversary))
              : new Anniversary(java.time.LocalDate.parse(anniversary)));
      rest.remove("anniversary");
    }
    String notes = rest.remove("notes");
    if (notes != null) {
      card.addNote(new Note(notes));
    }
    for (Map.Entry<String, String> other : rest.entrySet()) {
      RawProperty p = card.addExtendedProperty(OTHER_FIELD, other.getValue());
      p.getParameters().put(FIELD_PARAMETER, other.getKey());
    }
    return card;
  }

  /** The Zimbra fields a card holds: the inverse of {@link #toCard}. */
  public static Map<String, String> fields(VCard card) {
    Map<String, String> fields = new LinkedHashMap<>();
    if (card.getKind() != null && card.getKind().isGroup()) {
      fields.put("type", "group");
      List<String> members = new ArrayList<>();
      for (Member m : card.getMembers()) {
        String uri = m.getUri();
        if (uri != null) {
          members.add(uri.startsWith("mailto:") ? uri.substring("mailto:".length()) : uri);
        }
      }
      if (!members.isEmpty()) {
        fields.put("dlist", String.join(", ", members));
      }
    }
    StructuredName n = card.getStructuredName();
    if (n != null) {
      putIfPresent(fields, "lastName", n.getFamily());
      putIfPresent(fields, "firstName", n.getGiven());
      putIfPresent(fields, "middleName", first(n.getAdditionalNames()));
      putIfPresent(fields, "namePrefix", first(n.getPrefixes()));
      putIfPresent(fields, "nameSuffix", first(n.getSuffixes()));
    }
    FormattedName fn = card.getFormattedName();
    if (fn != null && fn.getParameter("X-MAILRESTORE-DERIVED") == null) {
      putIfPresent(fields, "fullName", fn.getValue());
    }
    if (card.getNickname() != null) {
      putIfPresent(fields, "nickname", first(card.getNickname().getValues()));
    }
    Organization org = card.getOrganization();
    if (org != null && !org.getValues().isEmpty()) {
      putIfPresent(fields, "company", blankToNull(org.getValues().get(0)));
      if (org.getValues().size() > 1) {
        putIfPresent(fields, "department", org.getValues().get(1));
      }
    }
    if (!card.getTitles().isEmpty()) {
      putIfPresent(fields, "jobTitle", card.getTitles().get(0).getValue());
    }
    int email = 0;
    for (Email e : card.getEmails()) {
      String field = e.getParameter(FIELD_PARAMETER);
      if (field == null) {
        field =
            e.getTypes().contains(EmailType.WORK) ? "workEmail" + (email + 1) : emailField(email);
        email++;
      }
      putIfPresent(fields, field, e.getValue());
    }
    for (Impp i : card.getImpps()) {
      String field = i.getParameter(FIELD_PARAMETER);
      String value = i.getUri() == null ? null : i.getUri().toString();
      if (value != null && value.startsWith("x-im:")) {
        value = value.substring("x-im:".length());
      }
      putIfPresent(fields, field == null ? "imAddress" + (fields.size() + 1) : field, value);
    }
    for (Telephone t : card.getTelephoneNumbers()) {
      String field = t.getParameter(FIELD_PARAMETER);
      putIfPresent(fields, field == null ? phoneField(t, fields) : field, t.getText());
    }
    for (Address a : card.getAddresses()) {
      String prefix = a.getParameter(FIELD_PARAMETER);
      if (prefix == null) {
        prefix =
            a.getTypes().contains(AddressType.HOME)
                ? "home"
                : a.getTypes().contains(AddressType.WORK) ? "work" : "other";
      }
      putIfPresent(fields, prefix + "Street", a.getStreetAddress());
      putIfPresent(fields, prefix + "City", a.getLocality());
      putIfPresent(fields, prefix + "State", a.getRegion());
      putIfPresent(fields, prefix + "PostalCode", a.getPostalCode());
      putIfPresent(fields, prefix + "Country", a.getCountry());
    }
    for (Url u : card.getUrls()) {
      String field = u.getParameter(FIELD_PARAMETER);
      if (field == null) {
        String type = u.getType() == null ? "" : u.getType().toLowerCase(Locale.ROOT);
        field = type.equals("home") ? "homeURL" : type.equals("work") ? "workURL" : "otherURL";
      }
      putIfPresent(fields, field, u.getValue());
    }
    if (card.getBirthday() != null) {
      putIfPresent(
          fields,
          "birthday",
          card.getBirthday().getDate() != null
              ? card.getBirthday().getDate().toString()
              : text(card.getBirthday().getPartialDate()));
    }
    if (card.getAnniversary() != null) {
      putIfPresent(
          fields,
          "anniversary",
          card.getAnniversary().getDate() != null
              ? card.getAnniversary().getDate().toString()
              : text(card.getAnniversary().getPartialDate()));
    }
    if (!card.getNotes().isEmpty()) {
      putIfPresent(fields, "notes", card.getNotes().get(0).getValue());
    }
    for (RawProperty p : card.getExtendedProperties(OTHER_FIELD)) {
      String field = p.getParameter(FIELD_PARAMETER);
      if (field != null) {
        fields.put(field, p.getValue());
      }
    }
    return fields;
  }

  /** The card as vCard 4.0 text. */
  public static String write(VCard card) {
    StringWriter out = new StringWriter();
    try (VCardWriter writer = new VCardWriter(out, VCardVersion.V4_0)) {
      writer.setAddProdId(false); // the same card for the same contact, whatever the version
      writer.write(card);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * The cards of a text (a .vcf file, a server's answer).
   *
   * @throws IOException when it cannot be read
   */
  public static List<VCard> read(String text) throws IOException {
    List<VCard> cards = new ArrayList<>();
    try (VCardReader reader = new VCardReader(new StringReader(text))) {
      for (VCard c = reader.readNext(); c != null; c = reader.readNext()) {
        cards.add(c);
      }
    }
    return cards;
  }

  /** The parameter that names the Zimbra field a property came from. */
  static final String FIELD_PARAMETER = "X-MAILRESTORE-FIELD";

  private static String formattedName(StructuredName n, Map<String, String> fields) {
    String name =
        String.join(
                " ",
                n.getGiven() == null ? "" : n.getGiven(),
                n.getFamily() == null ? "" : n.getFamily())
            .strip();
    if (!name.isEmpty()) {
      return name;
    }
    for (String key : List.of("company", "email", "nickname")) {
      if (fields.get(key) != null && !fields.get(key).isBlank()) {
        return fields.get(key);
      }
    }
    return "";
  }

  private static PartialDate date(String zimbra) {
    // Zimbra writes "yyyy-mm-dd", or "--mm-dd" when the year is not known.
    return PartialDate.parse(
        zimbra.startsWith("-") ? "--" + zimbra.substring(2).replace("-", "") : zimbra);
  }

  private static String text(PartialDate d) {
    if (d == null) {
      return null;
    }
    String month = String.format(Locale.ROOT, "%02d", d.getMonth());
    String day = String.format(Locale.ROOT, "%02d", d.getDate());
    return d.getYear() == null
        ? "--" + month + "-" + day
        : String.format(Locale.ROOT, "%04d", d.getYear()) + "-" + month + "-" + day;
  }

  private static String emailField(int index) {
    return index == 0 ? "email" : "email" + (index + 1);
  }

  private static String phoneField(Telephone t, Map<String, String> taken) {
    List<TelephoneType> types = new ArrayList<>(t.getTypes());
    for (Map.Entry<String, List<TelephoneType>> p : PHONES.entrySet()) {
      if (!taken.containsKey(p.getKey()) && types.containsAll(p.getValue())) {
        return p.getKey();
      }
    }
    return "otherPhone";
  }

  private static void addIfPresent(List<String> list, String value) {
    if (value != null) {
      list.add(value);
    }
  }

  private static void putIfPresent(Map<String, String> map, String key, String value) {
    if (value != null && !value.isEmpty()) {
      map.put(key, value);
    }
  }

  private static String first(List<String> values) {
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static String blankToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
