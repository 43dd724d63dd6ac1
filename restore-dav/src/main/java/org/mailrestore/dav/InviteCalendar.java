package org.mailrestore.dav;

import static org.mailrestore.dav.IcalLines.param;
import static org.mailrestore.dav.IcalLines.plainProperty;
import static org.mailrestore.dav.IcalLines.quoted;
import static org.mailrestore.dav.IcalLines.textProperty;
import static org.mailrestore.dav.IcalLines.unquote;
import static org.mailrestore.dav.ZimbraValues.asMap;
import static org.mailrestore.dav.ZimbraValues.map;
import static org.mailrestore.dav.ZimbraValues.number;
import static org.mailrestore.dav.ZimbraValues.numbered;
import static org.mailrestore.dav.ZimbraValues.str;
import static org.mailrestore.dav.ZimbraValues.strings;
import static org.mailrestore.dav.ZimbraValues.truth;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mailrestore.dav.CalendarObject.Refused;
import org.mailrestore.mail.ItemType;
import org.mailrestore.zimbra.ZimbraMetadata;

/**
 * The iCalendar of an appointment or task that Zimbra keeps only in its metadata (an archive's item
 * without content): each invite ({@code inv0}, {@code inv1}...) becomes a {@code VEVENT} or {@code
 * VTODO}, an invite with a recurrence id an exception of the first, and the time zones the invites
 * name ({@code tzm}) become {@code VTIMEZONE}s with their rules. The keys and codes are Zimbra's
 * ({@code Invite}, {@code ZAttendee}, {@code Alarm}, {@code Recurrence}, {@code ICalTimeZone},
 * {@code IcalXmlStrMap}); the mapping is in docs/dav-mapping.md.
 *
 * <p>The text made here is read by biweekly like any other ({@link CalendarObject#resource}), so
 * what it writes to the server is the library's.
 */
final class InviteCalendar {

  /** Zimbra's all-day bit in an invite's {@code af}. */
  private static final long ALL_DAY = 0x04;

  /** Zimbra's dates: {@code TZID=<id>:<date-time>}, {@code VALUE=DATE:<date>}, or bare. */
  static final Pattern DATE = Pattern.compile("\\d{8}(T\\d{6}Z?)?");

  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss", Locale.ROOT);
  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Zimbra's kinds of recurrence rule ({@code Recurrence.FN_RULE_TYPE}). */
  private static final long SIMPLE_RULE = 2;

  private static final long EXCEPTION_RULE = 3;
  private static final long RECURRENCE_RULE = 4;
  private static final long SINGLE_INSTANCE = 5;

  private final InviteZones zones;
  private final long itemDate;

  private InviteCalendar(InviteZones zones, long itemDate) {
    this.zones = zones;
    this.itemDate = itemDate;
  }

  /**
   * The iCalendar text of an item's invites, from its metadata's text.
   *
   * @param itemDate the item's date (epoch milliseconds): the stamp of an invite that has none
   * @throws Refused when the metadata cannot be read, holds no invite, or holds what cannot be
   *     carried without losing part of it (a kind of recurrence rule not read here)
   */
  static String text(String metadata, ItemType type, long itemDate) throws Refused {
    Map<String, Object> meta;
    try {
      meta = ZimbraMetadata.decode(metadata);
    } catch (ZimbraMetadata.Unreadable e) {
      throw new Refused("its Zimbra metadata cannot be read: " + e.getMessage());
    }
    List<Map<String, Object>> invites = invites(meta);
    if (invites.isEmpty()) {
      throw new Refused("it has no iCalendar content and its Zimbra metadata holds no invite");
    }
    return new InviteCalendar(InviteZones.of(meta, invites), itemDate).write(invites, type);
  }

  private String write(List<Map<String, Object>> invites, ItemType type) throws Refused {
    String component = CalendarObject.component(type);
    List<String> body = new ArrayList<>();
    for (Map<String, Object> inv : invites) {
      body.add("BEGIN:" + component);
      component(inv, type, body);
      body.add("END:" + component);
    }
    List<String> lines = new ArrayList<>();
    lines.add("BEGIN:VCALENDAR");
    lines.add("VERSION:2.0");
    lines.add("PRODID:-//mailrestore//Zimbra invites//EN");
    zones.writeUsed(lines);
    lines.addAll(body);
    lines.add("END:VCALENDAR");
    return String.join("\r\n", lines) + "\r\n";
  }

  private void component(Map<String, Object> inv, ItemType type, List<String> out) throws Refused {
    textProperty(out, "UID", str(inv, "u"));
    long stamp = number(inv, "dts", 0);
    if (stamp <= 0) {
      stamp = Math.max(0, itemDate); // DTSTAMP is required; the item's own date is the nearest
    }
    out.add("DTSTAMP:" + UTC.format(Instant.ofEpochMilli(stamp)));
    long modified = number(inv, "lastMod", 0);
    if (modified > 0) {
      out.add("LAST-MODIFIED:" + UTC.format(Instant.ofEpochMilli(modified)));
    }
    long seq = number(inv, "seq", 0);
    if (seq > 0) {
      out.add("SEQUENCE:" + seq);
    }
    textProperty(out, "SUMMARY", str(inv, "n"));
    textProperty(out, "LOCATION", str(inv, "l"));
    // The description is in the metadata only when it was short (dinM); else its fragment is.
    String description = str(inv, "desc");
    textProperty(out, "DESCRIPTION", description != null ? description : str(inv, "frag"));
    boolean allDay = (number(inv, "af", 0) & ALL_DAY) != 0;
    date(out, "DTSTART", str(inv, "st"), allDay);
    date(out, type == ItemType.TASK ? "DUE" : "DTEND", str(inv, "et"), allDay);
    if (str(inv, "et") == null) {
      plainProperty(out, "DURATION", str(inv, "duration"));
    }
    String status = "CANCEL".equalsIgnoreCase(str(inv, "mthd")) ? "CANC" : str(inv, "status");
    plainProperty(
        out,
        "STATUS",
        status == null ? null : ZimbraCodes.STATUS.get(status.toUpperCase(Locale.ROOT)));
    if (type != ItemType.TASK) {
      String transp = str(inv, "tr");
      plainProperty(
          out, "TRANSP", "T".equals(transp) ? "TRANSPARENT" : "O".equals(transp) ? "OPAQUE" : null);
    }
    String cls = str(inv, "cl");
    plainProperty(
        out, "CLASS", cls == null ? null : ZimbraCodes.CLASS.get(cls.toUpperCase(Locale.ROOT)));
    plainProperty(out, "PRIORITY", digits(str(inv, "prio")));
    if (type == ItemType.TASK) {
      plainProperty(out, "PERCENT-COMPLETE", digits(str(inv, "pctcompl")));
      long completed = number(inv, "completed", 0);
      if (completed > 0) {
        out.add("COMPLETED:" + UTC.format(Instant.ofEpochMilli(completed)));
      }
    }
    Map<String, Object> org = map(inv, "org");
    if (org != null && str(org, "a") != null) {
      out.add(user("ORGANIZER", org, false));
    }
    for (Map<String, Object> at : numbered(inv, "numAt", "at")) {
      if (str(at, "a") != null) {
        out.add(user("ATTENDEE", at, true));
      }
    }
    Map<String, Object> rid = map(inv, "rid");
    if (rid != null) {
      String range =
          switch ((int) number(rid, "r", 1)) {
            case 2 -> "THISANDFUTURE";
            case 3 -> "THISANDPRIOR";
            default -> null;
          };
      date(out, "RECURRENCE-ID" + (range == null ? "" : ";RANGE=" + range), str(rid, "dt"), allDay);
    }
    Map<String, Object> recurrence = map(inv, "recurrence");
    if (recurrence != null && rid == null) {
      rules(recurrence, true, allDay, out, 0);
    }
    List<String> categories = strings(inv, "numCat", "cat");
    if (!categories.isEmpty()) {
      out.add(
          "CATEGORIES:" + String.join(",", categories.stream().map(IcalLines::escape).toList()));
    }
    for (String comment : strings(inv, "numCmt", "cmt")) {
      textProperty(out, "COMMENT", comment);
    }
    for (String contact : strings(inv, "numContacts", "contact")) {
      textProperty(out, "CONTACT", contact);
    }
    plainProperty(out, "URL", str(inv, "url"));
    for (Map<String, Object> alarm : numbered(inv, "numAl", "al")) {
      alarm(alarm, str(inv, "n"), out);
    }
  }

  /**
   * A recurrence's rules: a compound rule's {@code add} and {@code sub} sets, each a simple rule
   * (an RRULE or EXRULE) or a single instance (an RDATE or EXDATE).
   */
  private void rules(
      Map<String, Object> rule, boolean add, boolean allDay, List<String> out, int depth)
      throws Refused {
    if (depth > 8) {
      throw new Refused("its recurrence is nested deeper than any Zimbra writes");
    }
    long kind = number(rule, "t", RECURRENCE_RULE);
    if (kind == RECURRENCE_RULE || kind == EXCEPTION_RULE) {
      for (Map<String, Object> r : numbered(map(rule, "add"), "nr", "r")) {
        rules(r, add, allDay, out, depth + 1);
      }
      for (Map<String, Object> r : numbered(map(rule, "sub"), "nr", "r")) {
        rules(r, !add, allDay, out, depth + 1);
      }
    } else if (kind == SIMPLE_RULE) {
      String recur = str(rule, "recur");
      if (recur == null || recur.isBlank()) {
        throw new Refused("its recurrence has a rule without its RECUR value");
      }
      plainProperty(out, add ? "RRULE" : "EXRULE", recur.strip());
    } else if (kind == SINGLE_INSTANCE) {
      date(out, add ? "RDATE" : "EXDATE", str(rule, "dts"), allDay);
    } else {
      throw new Refused(
          "its recurrence holds a rule of Zimbra's kind "
              + kind
              + ", which mailrestore does not read (the item would lose its instances)");
    }
  }

  private static void alarm(Map<String, Object> alarm, String summary, List<String> out) {
    String action = ZimbraCodes.ACTION.get(str(alarm, "ac"));
    if (action == null) {
      return; // Zimbra keeps no other (PROCEDURE is refused by Zimbra itself)
    }
    List<String> lines = new ArrayList<>();
    lines.add("BEGIN:VALARM");
    lines.add("ACTION:" + action);
    if ("a".equals(str(alarm, "tt"))) {
      String at = str(alarm, "ta");
      if (at == null || !DATE.matcher(at).matches()) {
        return;
      }
      lines.add("TRIGGER;VALUE=DATE-TIME:" + at);
    } else {
      String before = str(alarm, "tr");
      if (before == null) {
        return;
      }
      lines.add("TRIGGER" + ("e".equals(str(alarm, "trd")) ? ";RELATED=END" : "") + ":" + before);
    }
    String repeat = str(alarm, "rd");
    if (repeat != null && number(alarm, "rc", 0) > 0) {
      lines.add("DURATION:" + repeat);
      lines.add("REPEAT:" + number(alarm, "rc", 0));
    }
    String description = str(alarm, "ds");
    // RFC 5545 3.6.6: a DISPLAY or EMAIL alarm has a DESCRIPTION, an EMAIL one a SUMMARY too.
    if (description == null && !"AUDIO".equals(action)) {
      description = summary != null ? summary : "Reminder";
    }
    textProperty(lines, "DESCRIPTION", description);
    String alarmSummary = str(alarm, "su");
    if (alarmSummary == null && "EMAIL".equals(action)) {
      alarmSummary = summary != null ? summary : "Reminder";
    }
    textProperty(lines, "SUMMARY", alarmSummary);
    for (Map<String, Object> at : numbered(alarm, "numAt", "at")) {
      if (str(at, "a") != null) {
        lines.add(user("ATTENDEE", at, true));
      }
    }
    lines.add("END:VALARM");
    out.addAll(lines);
  }

  /** An organizer or attendee ({@code CalendarUser}, {@code ZAttendee}) as its property. */
  private static String user(String name, Map<String, Object> u, boolean attendee) {
    StringBuilder sb = new StringBuilder(name);
    param(sb, "CN", str(u, "cn"));
    param(sb, "SENT-BY", mailto(str(u, "sentby")));
    param(sb, "DIR", str(u, "dir"));
    param(sb, "LANGUAGE", str(u, "lang"));
    if (attendee) {
      param(sb, "CUTYPE", code(ZimbraCodes.CUTYPE, str(u, "cut")));
      param(sb, "ROLE", code(ZimbraCodes.ROLE, str(u, "r")));
      param(sb, "PARTSTAT", code(ZimbraCodes.PARTSTAT, str(u, "ptst")));
      String rsvp = str(u, "v");
      if (rsvp != null) {
        param(sb, "RSVP", truth(rsvp) ? "TRUE" : "FALSE");
      }
      param(sb, "MEMBER", mailto(str(u, "member")));
      param(sb, "DELEGATED-TO", mailto(str(u, "delto")));
      param(sb, "DELEGATED-FROM", mailto(str(u, "delfrom")));
    }
    return sb.append(':').append(mailto(str(u, "a"))).toString();
  }

  /**
   * A date property from Zimbra's text of a date: {@code TZID=Europe/Berlin:20261103T100000}, a UTC
   * or floating date-time, or {@code VALUE=DATE:20261103}. A zone the metadata does not describe
   * but Java knows is written in UTC; one neither knows fails the item.
   */
  private void date(List<String> out, String name, String value, boolean allDay) throws Refused {
    if (value == null || value.isBlank()) {
      return;
    }
    int colon = value.lastIndexOf(':');
    String when = value.substring(colon + 1).strip();
    String params = colon < 0 ? "" : value.substring(0, colon);
    if (when.length() == 9 && when.endsWith("Z")) {
      when = when.substring(0, 8); // a date with a stray Z, as Zimbra reads it
    }
    if (!DATE.matcher(when).matches()) {
      throw new Refused("its invite has a date Zimbra's metadata does not write: " + value);
    }
    if (allDay || when.length() == 8 || params.contains("VALUE=DATE")) {
      out.add(name + ";VALUE=DATE:" + when.substring(0, 8));
      return;
    }
    Matcher tz = Pattern.compile("TZID=(.*?)(;VALUE=.*)?$").matcher(params);
    String tzid = tz.find() ? unquote(tz.group(1)) : null;
    if (when.endsWith("Z") || tzid == null || tzid.isEmpty()) {
      out.add(name + ":" + when);
    } else if ("UTC".equals(tzid) || "Z".equals(tzid)) {
      out.add(name + ":" + when + "Z");
    } else if (zones.use(tzid)) {
      out.add(name + ";TZID=" + quoted(tzid) + ":" + when);
    } else {
      out.add(name + ":" + inUtc(tzid, when, value));
    }
  }

  private static String inUtc(String tzid, String when, String value) throws Refused {
    try {
      LocalDateTime local = LocalDateTime.parse(when, LOCAL);
      return UTC.format(local.atZone(ZoneId.of(tzid)).toInstant());
    } catch (java.time.DateTimeException e) {
      throw new Refused(
          "its invite names the time zone \""
              + tzid
              + "\", which neither its metadata describes nor Java knows ("
              + value
              + ")");
    }
  }

  /** The item's invites: {@code inv0}... up to its count ({@code nc}), or an {@code inv} list. */
  private static List<Map<String, Object>> invites(Map<String, Object> meta) {
    List<Map<String, Object>> invites = new ArrayList<>(numbered(meta, "nc", "inv"));
    if (invites.isEmpty() && meta.get("inv") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> m) {
          invites.add(asMap(m));
        }
      }
    }
    // An invite without its UID has the item's: every component of a resource shares one.
    String itemUid = str(meta, "u");
    if (itemUid != null) {
      invites.replaceAll(inv -> {
        if (str(inv, "u") != null) {
          return inv;
        }
        Map<String, Object> withUid = new LinkedHashMap<>(inv);
        withUid.put("u", itemUid);
        return withUid;
      });
    }
    // The series first: a server files exceptions under the component without RECURRENCE-ID.
    invites.sort((a, b) -> Boolean.compare(a.containsKey("rid"), b.containsKey("rid")));
    return invites;
  }

  private static String digits(String s) {
    return s != null && s.strip().matches("\\d{1,3}") ? s.strip() : null;
  }

  private static String code(Map<String, String> codes, String value) {
    return value == null ? null : codes.getOrDefault(value.toUpperCase(Locale.ROOT), null);
  }

  private static String mailto(String address) {
    if (address == null) {
      return null;
    }
    return address.contains(":") ? address : "mailto:" + address;
  }
}
