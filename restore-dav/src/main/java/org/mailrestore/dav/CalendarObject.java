package org.mailrestore.dav;

import biweekly.Biweekly;
import biweekly.ICalendar;
import biweekly.component.ICalComponent;
import biweekly.component.VEvent;
import biweekly.component.VTodo;
import biweekly.io.ParseWarning;
import biweekly.property.Uid;
import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.mailrestore.mail.ItemType;

/**
 * An appointment or a task as a CalDAV calendar object resource (RFC 4791 4.1): the iCalendar of
 * its content's {@code text/calendar} part (what Zimbra keeps with an invite), reduced to what a
 * calendar server stores: no {@code METHOD}; the item's events (the master and its exceptions, by
 * {@code RECURRENCE-ID}) or to-dos, one UID for all of them, and the time zones they name.
 * Recurrences are kept as rules, never expanded, so a rule of a million instances stays one line.
 */
public final class CalendarObject {

  /** What cannot be made a calendar object, with why: the item fails with it. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1;

    Refused(String reason) {
      super(reason);
    }
  }

  /** The most bytes of iCalendar read from one item. */
  public static final int MAX_CALENDAR_BYTES = 10 * 1024 * 1024;

  /** One session for every item: making one looks its providers up in every jar, each time. */
  private static final Session SESSION = Session.getInstance(new Properties());

  private CalendarObject() {}

  /**
   * The text of the first {@code text/calendar} part of a MIME message (an appointment's or task's
   * content), or of a bare iCalendar.
   *
   * @throws Refused when it holds none, or one larger than {@link #MAX_CALENDAR_BYTES}
   */
  public static String calendarText(byte[] content) throws Refused {
    if (startsWith(content, "BEGIN:VCALENDAR")) {
      if (content.length > MAX_CALENDAR_BYTES) {
        throw new Refused("its iCalendar is larger than " + MAX_CALENDAR_BYTES + " bytes");
      }
      return new String(content, StandardCharsets.UTF_8);
    }
    try {
      MimeMessage message = new MimeMessage(SESSION, new ByteArrayInputStream(content));
      Part part = calendarPart(message, 0);
      if (part == null) {
        throw new Refused("its content has no text/calendar part");
      }
      Charset charset = charset(part.getContentType());
      try (InputStream in = part.getInputStream()) {
        byte[] bytes = in.readNBytes(MAX_CALENDAR_BYTES + 1);
        if (bytes.length > MAX_CALENDAR_BYTES) {
          throw new Refused("its iCalendar is larger than " + MAX_CALENDAR_BYTES + " bytes");
        }
        return new String(bytes, charset);
      }
    } catch (MessagingException | IOException e) {
      throw new Refused("its content cannot be read as MIME: " + e.getMessage());
    }
  }

  /**
   * The calendar object resource of an item of {@code type} (an appointment: its events; a task:
   * its to-dos) from its iCalendar text.
   *
   * @param uid the UID to give components that have none (stable for the item)
   * @throws Refused when the text is not iCalendar, holds nothing of the type, or mixes UIDs
   */
  public static ICalendar resource(String text, ItemType type, String uid) throws Refused {
    List<List<ParseWarning>> warnings = new ArrayList<>();
    ICalendar parsed = Biweekly.parse(text).warnings(warnings).first();
    if (parsed == null) {
      throw new Refused("its iCalendar cannot be read (no VCALENDAR)");
    }
    List<? extends ICalComponent> items =
        type == ItemType.TASK ? parsed.getTodos() : parsed.getEvents();
    if (items.isEmpty()) {
      throw new Refused("its iCalendar holds no " + component(type));
    }
    Set<String> uids = new LinkedHashSet<>();
    for (ICalComponent c : items) {
      Uid u = c.getProperty(Uid.class);
      if (u == null || u.getValue() == null || u.getValue().isBlank()) {
        c.setProperty(Uid.class, new Uid(uid));
      }
      uids.add(c.getProperty(Uid.class).getValue());
    }
    if (uids.size() > 1) {
      throw new Refused("its iCalendar holds components of several UIDs: " + uids);
    }
    ICalendar resource = new ICalendar();
    resource.setProductId(parsed.getProductId());
    resource.setTimezoneInfo(parsed.getTimezoneInfo());
    for (ICalComponent c : items) {
      if (c instanceof VEvent e) {
        resource.addEvent(e);
      } else if (c instanceof VTodo t) {
        resource.addTodo(t);
      }
    }
    return resource;
  }

  /**
   * The calendar object resource of an item that has no content: an archive's appointment or task
   * whose invites Zimbra kept in its metadata only (see {@link InviteCalendar}).
   *
   * @param attrs the item's attributes, where the archive reader keeps its Zimbra metadata
   * @param itemDate the item's date (epoch milliseconds), the stamp of an invite without one
   * @throws Refused when it has no metadata, or metadata that cannot be made a calendar object
   */
  public static ICalendar withoutContent(
      java.util.Map<String, String> attrs, ItemType type, String uid, long itemDate)
      throws Refused {
    String metadata = attrs.get(org.mailrestore.zimbra.ZimbraMetadata.ATTR);
    if (metadata == null || metadata.isEmpty()) {
      throw new Refused("it has neither iCalendar content nor Zimbra metadata with its invites");
    }
    return resource(InviteCalendar.text(metadata, type, itemDate), type, uid);
  }

  /**
   * The iCalendar component an item of this type is: {@code VTODO} for a task, else {@code VEVENT}.
   */
  static String component(ItemType type) {
    return type == ItemType.TASK ? "VTODO" : "VEVENT";
  }

  /** The UID of a resource's components. */
  public static String uid(ICalendar resource) {
    List<? extends ICalComponent> items =
        resource.getEvents().isEmpty() ? resource.getTodos() : resource.getEvents();
    return items.isEmpty() ? null : items.get(0).getProperty(Uid.class).getValue();
  }

  /** The summary of a resource's first component, or null. */
  public static String summary(ICalendar resource) {
    List<? extends ICalComponent> items =
        resource.getEvents().isEmpty() ? resource.getTodos() : resource.getEvents();
    if (items.isEmpty()) {
      return null;
    }
    biweekly.property.Summary s = items.get(0).getProperty(biweekly.property.Summary.class);
    return s == null ? null : s.getValue();
  }

  /** The resource as iCalendar 2.0 text, with the time zones its components name. */
  public static String write(ICalendar resource) {
    return Biweekly.write(resource).go();
  }

  /** The calendars of a text (a .ics file, a server's answer). */
  public static List<ICalendar> read(String text) {
    return Biweekly.parse(text).all();
  }

  private static Part calendarPart(Part part, int depth) throws MessagingException, IOException {
    if (depth > 20) {
      return null; // deeper than any mail client nests; not worth following
    }
    if (part.isMimeType("text/calendar")) {
      return part;
    }
    if (part.isMimeType("multipart/*") && part.getContent() instanceof Multipart multipart) {
      for (int i = 0; i < multipart.getCount(); i++) {
        BodyPart child = multipart.getBodyPart(i);
        Part found = calendarPart(child, depth + 1);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static Charset charset(String contentType) {
    try {
      String name = new jakarta.mail.internet.ContentType(contentType).getParameter("charset");
      return name == null ? StandardCharsets.UTF_8 : Charset.forName(name.strip());
    } catch (MessagingException | IllegalArgumentException e) {
      return StandardCharsets.UTF_8; // iCalendar's own default (RFC 5545 3.1.4)
    }
  }

  private static boolean startsWith(byte[] content, String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
    int start = 0;
    while (start < content.length && Character.isWhitespace(content[start])) {
      start++;
    }
    if (content.length - start < p.length) {
      return false;
    }
    for (int i = 0; i < p.length; i++) {
      if (Character.toUpperCase(content[start + i]) != p[i]) {
        return false;
      }
    }
    return true;
  }
}
