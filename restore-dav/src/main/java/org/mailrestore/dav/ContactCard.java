package org.mailrestore.dav;

import ezvcard.VCard;
import ezvcard.VCardVersion;
import ezvcard.io.text.VCardReader;
import ezvcard.io.text.VCardWriter;
import ezvcard.parameter.AddressType;
import ezvcard.parameter.EmailType;
import ezvcard.parameter.ImageType;
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
import ezvcard.property.Photo;
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
import java.util.Map;
import org.mailrestore.zimbra.ZimbraMetadata;

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
    // The source's own keys: an archive's raw Zimbra metadata is Zimbra's, not the contact's.
    rest.keySet().removeIf(k -> k.startsWith("_") || k.equals(ZimbraMetadata.ATTR));
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
      card.getFormattedName().addParameter(ContactFields.DERIVED, "true");
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
    Photo photo = photo(rest.get(ContactFields.PICTURE));
    if (photo != null) {
      card.addPhoto(photo);
      rest.remove(ContactFields.PICTURE); // else (not a data: URI) it travels as it is
    }
    for (String key : List.copyOf(rest.keySet())) {
      String value = rest.get(key);
      if (ContactFields.EMAIL.matcher(key).matches()) {
        Email e = card.addEmail(value);
        e.getParameters().put(ContactFields.FIELD_PARAMETER, key);
        if (key.equals("email")) {
          e.setPref(1);
        }
        rest.remove(key);
      } else if (ContactFields.WORK_EMAIL.matcher(key).matches()) {
        Email e = card.addEmail(value, EmailType.WORK);
        e.getParameters().put(ContactFields.FIELD_PARAMETER, key);
        rest.remove(key);
      } else if (ContactFields.IM.matcher(key).matches()) {
        Impp impp = new Impp(value.contains(":") ? value : "x-im:" + value);
        impp.getParameters().put(ContactFields.FIELD_PARAMETER, key);
        card.addImpp(impp);
        rest.remove(key);
      }
    }
    for (Map.Entry<String, List<TelephoneType>> p : ContactFields.PHONES.entrySet()) {
      String value = rest.remove(p.getKey());
      if (value != null) {
        Telephone tel = new Telephone(value);
        p.getValue().forEach(t -> tel.getTypes().add(t));
        tel.getParameters().put(ContactFields.FIELD_PARAMETER, p.getKey());
        card.addTelephoneNumber(tel);
      }
    }
    for (Map.Entry<String, AddressType> a : ContactFields.ADDRESSES.entrySet()) {
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
        adr.getParameters().put(ContactFields.FIELD_PARAMETER, prefix);
        card.addAddress(adr);
      }
    }
    for (Map.Entry<String, String> u : ContactFields.URLS.entrySet()) {
      String value = rest.remove(u.getKey());
      if (value != null) {
        Url url = new Url(value);
        if (u.getValue() != null) {
          url.setType(u.getValue());
        }
        url.getParameters().put(ContactFields.FIELD_PARAMETER, u.getKey());
        card.addUrl(url);
      }
    }
    String birthday = rest.get("birthday");
    if (birthday != null && ContactFields.DATE.matcher(birthday).matches()) {
      card.setBirthday(
          birthday.startsWith("-")
              ? new Birthday(date(birthday))
              : new Birthday(java.time.LocalDate.parse(birthday)));
      rest.remove("birthday");
    }
    String anniversary = rest.get("anniversary");
    if (anniversary != null && ContactFields.DATE.matcher(anniversary).matches()) {
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
      RawProperty p = card.addExtendedProperty(ContactFields.OTHER_FIELD, other.getValue());
      p.getParameters().put(ContactFields.FIELD_PARAMETER, other.getKey());
    }
    return card;
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

  private static void addIfPresent(List<String> list, String value) {
    if (value != null) {
      list.add(value);
    }
  }

  /** The picture of a {@code data:<type>;base64,<bytes>} value, or null for another value. */
  private static Photo photo(String value) {
    if (value == null || !value.startsWith("data:")) {
      return null;
    }
    int comma = value.indexOf(',');
    String head = comma < 0 ? "" : value.substring("data:".length(), comma);
    if (!head.endsWith(";base64")) {
      return null;
    }
    String mediaType = head.substring(0, head.length() - ";base64".length());
    byte[] bytes;
    try {
      bytes = java.util.Base64.getDecoder().decode(value.substring(comma + 1));
    } catch (IllegalArgumentException e) {
      return null;
    }
    ImageType type = ImageType.find(null, mediaType, null);
    return new Photo(bytes, type != null ? type : ImageType.get(null, mediaType, null));
  }
}
