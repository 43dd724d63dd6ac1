package org.mailrestore.backup.generate;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.mailrestore.mail.ItemType;

/**
 * An appointment's or task's content as Zimbra keeps it: a MIME message whose {@code text/calendar}
 * part holds the item's iCalendar. Made from the item alone (no random draw), so that a seed's
 * backup stays the same elsewhere. Every third appointment recurs weekly with one moved instance;
 * every fifth is all-day; every appointment has an alarm and an attendee.
 */
final class CalendarInvite {

  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.UTC);

  private CalendarInvite() {}

  static byte[] compose(
      ItemType type, int id, String subject, long date, String owner, String domain) {
    Instant start = Instant.ofEpochMilli(date).plusSeconds(86_400L * (1 + id % 30));
    start = start.minusMillis(start.toEpochMilli() % 3_600_000L); // on the hour
    String uid = "gen-" + id + "-" + Long.toHexString(date) + "@" + domain;
    StringBuilder c = new StringBuilder();
    line(c, "BEGIN:VCALENDAR");
    line(c, "VERSION:2.0");
    line(c, "PRODID:-//mailrestore//backup generator//EN");
    line(c, "METHOD:PUBLISH");
    if (type == ItemType.TASK) {
      line(c, "BEGIN:VTODO");
      line(c, "UID:" + uid);
      line(c, "DTSTAMP:" + UTC.format(Instant.ofEpochMilli(date)));
      line(c, "SUMMARY:" + subject);
      line(c, "DUE:" + UTC.format(start));
      line(c, "PRIORITY:" + (1 + id % 9));
      line(c, "PERCENT-COMPLETE:" + (id % 5) * 25);
      line(c, "STATUS:" + (id % 5 == 4 ? "COMPLETED" : "NEEDS-ACTION"));
      line(c, "END:VTODO");
    } else {
      boolean allDay = id % 5 == 0;
      boolean recurring = id % 3 == 0;
      line(c, "BEGIN:VEVENT");
      line(c, "UID:" + uid);
      line(c, "DTSTAMP:" + UTC.format(Instant.ofEpochMilli(date)));
      line(c, "SUMMARY:" + subject);
      if (allDay) {
        line(c, "DTSTART;VALUE=DATE:" + DAY.format(start));
        line(c, "DTEND;VALUE=DATE:" + DAY.format(start.plusSeconds(86_400)));
      } else {
        line(c, "DTSTART:" + UTC.format(start));
        line(c, "DTEND:" + UTC.format(start.plusSeconds(3600)));
      }
      line(c, "ORGANIZER;CN=Owner:mailto:" + owner);
      line(c, "ATTENDEE;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:guest" + id + "@" + domain);
      if (recurring) {
        line(c, "RRULE:FREQ=WEEKLY;COUNT=10");
      }
      line(c, "BEGIN:VALARM");
      line(c, "ACTION:DISPLAY");
      line(c, "DESCRIPTION:" + subject);
      line(c, "TRIGGER:-PT15M");
      line(c, "END:VALARM");
      line(c, "END:VEVENT");
      if (recurring && !allDay) {
        Instant second = start.plusSeconds(7 * 86_400L);
        line(c, "BEGIN:VEVENT");
        line(c, "UID:" + uid);
        line(c, "DTSTAMP:" + UTC.format(Instant.ofEpochMilli(date)));
        line(c, "RECURRENCE-ID:" + UTC.format(second));
        line(c, "SUMMARY:" + subject + " (moved)");
        line(c, "DTSTART:" + UTC.format(second.plusSeconds(7200)));
        line(c, "DTEND:" + UTC.format(second.plusSeconds(10_800)));
        line(c, "END:VEVENT");
      }
    }
    line(c, "END:VCALENDAR");
    String boundary = "=_cal_" + id;
    String mime =
        "From: "
            + owner
            + "\r\nTo: "
            + owner
            + "\r\nSubject: "
            + subject
            + "\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\""
            + boundary
            + "\"\r\n\r\n--"
            + boundary
            + "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            + subject
            + "\r\n--"
            + boundary
            + "\r\nContent-Type: text/calendar; charset=utf-8; method=PUBLISH\r\n\r\n"
            + c
            + "--"
            + boundary
            + "--\r\n";
    return mime.getBytes(StandardCharsets.UTF_8);
  }

  private static void line(StringBuilder c, String line) {
    c.append(line).append("\r\n");
  }
}
