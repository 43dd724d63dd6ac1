package org.mailrestore.dav;

import ezvcard.parameter.AddressType;
import ezvcard.parameter.TelephoneType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The table of docs/dav-mapping.md: which Zimbra contact field is which vCard property. */
final class ContactFields {

  /** The extended property that carries a field no vCard property holds. */
  static final String OTHER_FIELD = "X-MAILRESTORE-OTHER";

  /** The field of a contact's picture ({@code data:<type>;base64,...}), Zimbra's name for it. */
  static final String PICTURE = "image";

  /** Zimbra's telephone fields and their vCard types. */
  static final Map<String, List<TelephoneType>> PHONES;

  /** Zimbra's address field prefixes and their vCard types (none for "other"). */
  static final Map<String, AddressType> ADDRESSES;

  /** Zimbra's URL fields and their vCard types. */
  static final Map<String, String> URLS;

  static {
    Map<String, List<TelephoneType>> phones = new LinkedHashMap<>();
    Map<String, AddressType> addresses = new LinkedHashMap<>();
    Map<String, String> urls = new LinkedHashMap<>();
    phones.put("homePhone", List.of(TelephoneType.HOME, TelephoneType.VOICE));
    phones.put("homePhone2", List.of(TelephoneType.HOME, TelephoneType.VOICE));
    phones.put("workPhone", List.of(TelephoneType.WORK, TelephoneType.VOICE));
    phones.put("workPhone2", List.of(TelephoneType.WORK, TelephoneType.VOICE));
    phones.put("mobilePhone", List.of(TelephoneType.CELL));
    phones.put("pager", List.of(TelephoneType.PAGER));
    phones.put("homeFax", List.of(TelephoneType.HOME, TelephoneType.FAX));
    phones.put("workFax", List.of(TelephoneType.WORK, TelephoneType.FAX));
    phones.put("carPhone", List.of(TelephoneType.CAR));
    phones.put("otherPhone", List.of(TelephoneType.VOICE));
    phones.put("otherFax", List.of(TelephoneType.FAX));
    phones.put("companyPhone", List.of(TelephoneType.WORK, TelephoneType.get("x-company")));
    phones.put("assistantPhone", List.of(TelephoneType.get("x-assistant")));
    phones.put("callbackPhone", List.of(TelephoneType.get("x-callback")));
    addresses.put("home", AddressType.HOME);
    addresses.put("work", AddressType.WORK);
    addresses.put("other", null);
    urls.put("homeURL", "home");
    urls.put("workURL", "work");
    urls.put("otherURL", null);
    PHONES = java.util.Collections.unmodifiableMap(phones);
    ADDRESSES = java.util.Collections.unmodifiableMap(addresses); // "other" maps to null
    URLS = java.util.Collections.unmodifiableMap(urls);
  }

  static final Pattern EMAIL = Pattern.compile("email([2-9]|[1-9][0-9])?");
  static final Pattern WORK_EMAIL = Pattern.compile("workEmail[1-9][0-9]?");
  static final Pattern IM = Pattern.compile("imAddress[1-9][0-9]?");
  static final Pattern DATE = Pattern.compile("(\\d{4}|-)-\\d{2}-\\d{2}");

  /** The parameter that names the Zimbra field a property came from. */
  static final String FIELD_PARAMETER = "X-MAILRESTORE-FIELD";

  /** The parameter that marks an {@code FN} made because the contact had no full name. */
  static final String DERIVED = "X-MAILRESTORE-DERIVED";

  private ContactFields() {}
}
