package org.mailrestore.dav;

import biweekly.ICalendar;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.ItemType;

/**
 * A contact, appointment or task as the resource it becomes on a DAV server: its name under the
 * collection, its UID, its text, and the hash of its canonical form (what verify compares with the
 * server's copy, whatever the server's line folding or property order).
 *
 * @param name the resource's name in its collection ({@code <uuid>.vcf} or {@code .ics}), made from
 *     the UID so that a write repeated lands on the same resource
 */
record DavResource(ItemType type, String uid, String name, String text, byte[] canonicalSha256) {

  static final String VCARD = "text/vcard; charset=utf-8";
  static final String ICALENDAR = "text/calendar; charset=utf-8";

  /** The parameter that marks the {@code CATEGORIES} made from the item's tags. */
  static final String TAGS = "X-MAILRESTORE-TAGS";

  /** The card of a contact with these fields and tags. */
  static DavResource contact(String uid, Map<String, String> fields, List<String> tags) {
    ezvcard.VCard card = ContactCard.toCard(uid, fields);
    if (!tags.isEmpty()) {
      ezvcard.property.Categories categories = new ezvcard.property.Categories();
      categories.getValues().addAll(tags);
      categories.addParameter(TAGS, "true");
      card.addCategories(categories);
    }
    String text = ContactCard.write(card);
    return new DavResource(
        ItemType.CONTACT, uid, nameOf(uid, ".vcf"), text, canonical(ItemType.CONTACT, text));
  }

  /** The calendar object of an appointment or task, each component with the item's tags. */
  static DavResource calendar(ItemType type, ICalendar resource, List<String> tags) {
    if (!tags.isEmpty()) {
      List<biweekly.component.ICalComponent> components = new java.util.ArrayList<>();
      components.addAll(resource.getEvents());
      components.addAll(resource.getTodos());
      for (biweekly.component.ICalComponent c : components) {
        biweekly.property.Categories categories = new biweekly.property.Categories(tags);
        categories.getParameters().put(TAGS, "true");
        c.addProperty(categories);
      }
    }
    String text = CalendarObject.write(resource);
    String uid = CalendarObject.uid(resource);
    return new DavResource(type, uid, nameOf(uid, ".ics"), text, canonical(type, text));
  }

  /** The attendees of a calendar object's events or to-dos (an alarm's, who it mails, aside). */
  int attendees() {
    int count = 0;
    int alarms = 0;
    for (String line : text.split("\r\n")) {
      if (line.equalsIgnoreCase("BEGIN:VALARM")) {
        alarms++;
      } else if (line.equalsIgnoreCase("END:VALARM")) {
        alarms--;
      } else if (alarms == 0
          && line.regionMatches(true, 0, "ATTENDEE", 0, 8)
          && line.length() > 8
          && (line.charAt(8) == ':' || line.charAt(8) == ';')) {
        count++;
      }
    }
    return count;
  }

  /**
   * A calendar's text with each component's properties, and its components, in one order: servers
   * keep what they are given but not always in the order given (Radicale moves DTSTAMP).
   */
  static String sortedComponents(String text) {
    List<String> lines = List.of(text.replace("\r\n ", "").replace("\r\n\t", "").split("\r\n"));
    int[] at = {0};
    return component(lines, at);
  }

  private static String component(List<String> lines, int[] at) {
    String begin = lines.get(at[0]++);
    List<String> parts = new java.util.ArrayList<>();
    while (at[0] < lines.size()) {
      String line = lines.get(at[0]);
      if (line.startsWith("END:")) {
        at[0]++;
        break;
      }
      if (line.startsWith("BEGIN:")) {
        parts.add(component(lines, at));
      } else {
        parts.add(withoutDefaults(line));
        at[0]++;
      }
    }
    java.util.Collections.sort(parts);
    return begin + "\n" + String.join("\n", parts) + "\nEND\n";
  }

  /**
   * A recurrence rule without the parts that say its defaults ({@code INTERVAL=1}, {@code WKST=MO},
   * RFC 5545 3.3.10), which servers drop (Cyrus does, in the rules of a time zone): the same rule.
   */
  private static String withoutDefaults(String line) {
    if (!line.startsWith("RRULE:") && !line.startsWith("EXRULE:")) {
      return line;
    }
    int colon = line.indexOf(':');
    List<String> parts = new java.util.ArrayList<>();
    for (String part : line.substring(colon + 1).split(";")) {
      if (!part.equalsIgnoreCase("INTERVAL=1") && !part.equalsIgnoreCase("WKST=MO")) {
        parts.add(part);
      }
    }
    return line.substring(0, colon + 1) + String.join(";", parts);
  }

  /**
   * The UID of an item that brings none of its own (a contact; a calendar component without one):
   * its UUID in the source, else one made from the account and its id there, the same on every run.
   */
  static String itemUid(String account, int itemId, org.mailrestore.mail.Revision state) {
    String uuid = state.uuid();
    if (uuid != null && !uuid.isBlank()) {
      return uuid;
    }
    return UUID.nameUUIDFromBytes(
            (account.toLowerCase(java.util.Locale.ROOT) + "/" + itemId)
                .getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  String contentType() {
    return type == ItemType.CONTACT ? VCARD : ICALENDAR;
  }

  /** A safe resource name for any UID (UIDs may hold characters a URL path cannot). */
  static String nameOf(String uid, String extension) {
    return UUID.nameUUIDFromBytes(uid.getBytes(StandardCharsets.UTF_8)) + extension;
  }

  /** The item's tags a resource's text holds (its marked {@code CATEGORIES}). */
  static List<String> tagsOf(ItemType type, String text) {
    List<String> tags = new java.util.ArrayList<>();
    try {
      if (type == ItemType.CONTACT) {
        for (ezvcard.VCard card : ContactCard.read(text)) {
          for (ezvcard.property.Categories c : card.getCategoriesList()) {
            if (c.getParameter(TAGS) != null) {
              tags.addAll(c.getValues());
            }
          }
        }
      } else {
        for (ICalendar calendar : CalendarObject.read(text)) {
          List<biweekly.component.ICalComponent> components = new java.util.ArrayList<>();
          components.addAll(calendar.getEvents());
          components.addAll(calendar.getTodos());
          if (!components.isEmpty()) {
            for (biweekly.property.Categories c :
                components.get(0).getProperties(biweekly.property.Categories.class)) {
              if (c.getParameter(TAGS) != null) {
                tags.addAll(c.getValues());
              }
            }
          }
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      return List.of();
    }
    return tags;
  }

  /** The UID of a resource's text, or null when it cannot be read as one. */
  static String uidOf(ItemType type, String text) {
    try {
      if (type == ItemType.CONTACT) {
        List<ezvcard.VCard> cards = ContactCard.read(text);
        return cards.size() == 1 && cards.get(0).getUid() != null
            ? cards.get(0).getUid().getValue()
            : null;
      }
      List<ICalendar> calendars = CalendarObject.read(text);
      return calendars.size() == 1 ? CalendarObject.uid(calendars.get(0)) : null;
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The hash of a resource's canonical form: a card's fields by the mapping, a calendar object
   * written again by the library. Null when the text cannot be read as one.
   */
  static byte[] canonical(ItemType type, String text) {
    String form;
    try {
      if (type == ItemType.CONTACT) {
        List<ezvcard.VCard> cards = ContactCard.read(text);
        if (cards.size() != 1) {
          return null;
        }
        form =
            new TreeMap<>(CardFields.of(cards.get(0))).toString()
                + "|"
                + cards.get(0).getUid().getValue();
      } else {
        List<ICalendar> calendars = CalendarObject.read(text);
        if (calendars.size() != 1) {
          return null;
        }
        form = sortedComponents(CalendarObject.write(calendars.get(0)));
      }
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
    return BlobDigest.newSha256().digest(form.getBytes(StandardCharsets.UTF_8));
  }
}
