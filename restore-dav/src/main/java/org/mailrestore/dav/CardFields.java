package org.mailrestore.dav;

import ezvcard.VCard;
import ezvcard.parameter.AddressType;
import ezvcard.parameter.EmailType;
import ezvcard.parameter.TelephoneType;
import ezvcard.property.Address;
import ezvcard.property.Email;
import ezvcard.property.FormattedName;
import ezvcard.property.Impp;
import ezvcard.property.Member;
import ezvcard.property.Organization;
import ezvcard.property.RawProperty;
import ezvcard.property.StructuredName;
import ezvcard.property.Telephone;
import ezvcard.property.Url;
import ezvcard.util.PartialDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A card's Zimbra contact fields: what {@link ContactCard#toCard} wrote, read back by the parameter
 * each property carries, or, for another client's card, by its types (docs/dav-mapping.md).
 */
public final class CardFields {

  private CardFields() {}

  /** The Zimbra fields a card holds: the inverse of {@link ContactCard#toCard}. */
  public static Map<String, String> of(VCard card) {
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
    if (fn != null && fn.getParameter(ContactFields.DERIVED) == null) {
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
      String field = e.getParameter(ContactFields.FIELD_PARAMETER);
      if (field == null) {
        field =
            e.getTypes().contains(EmailType.WORK) ? "workEmail" + (email + 1) : emailField(email);
        email++;
      }
      putIfPresent(fields, field, e.getValue());
    }
    for (Impp i : card.getImpps()) {
      String field = i.getParameter(ContactFields.FIELD_PARAMETER);
      String value = i.getUri() == null ? null : i.getUri().toString();
      if (value != null && value.startsWith("x-im:")) {
        value = value.substring("x-im:".length());
      }
      putIfPresent(fields, field == null ? "imAddress" + (fields.size() + 1) : field, value);
    }
    for (Telephone t : card.getTelephoneNumbers()) {
      String field = t.getParameter(ContactFields.FIELD_PARAMETER);
      putIfPresent(fields, field == null ? phoneField(t, fields) : field, t.getText());
    }
    for (Address a : card.getAddresses()) {
      String prefix = a.getParameter(ContactFields.FIELD_PARAMETER);
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
      String field = u.getParameter(ContactFields.FIELD_PARAMETER);
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
    for (ezvcard.property.Photo p : card.getPhotos()) {
      if (p.getData() != null) {
        String type = p.getContentType() == null ? null : p.getContentType().getMediaType();
        fields.put(
            ContactFields.PICTURE,
            "data:"
                + (type == null ? "application/octet-stream" : type)
                + ";base64,"
                + java.util.Base64.getEncoder().encodeToString(p.getData()));
      } else {
        putIfPresent(fields, ContactFields.PICTURE, p.getUrl());
      }
      break; // Zimbra keeps one picture
    }
    for (RawProperty p : card.getExtendedProperties(ContactFields.OTHER_FIELD)) {
      String field = p.getParameter(ContactFields.FIELD_PARAMETER);
      if (field != null) {
        fields.put(field, p.getValue());
      }
    }
    return fields;
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
    for (Map.Entry<String, List<TelephoneType>> p : ContactFields.PHONES.entrySet()) {
      if (!taken.containsKey(p.getKey()) && types.containsAll(p.getValue())) {
        return p.getKey();
      }
    }
    return "otherPhone";
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
