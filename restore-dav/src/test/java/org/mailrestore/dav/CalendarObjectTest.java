package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import biweekly.ICalendar;
import biweekly.component.VEvent;
import biweekly.component.VTodo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.mailrestore.mail.ItemType;

/** Appointments and tasks from their content's text/calendar part to calendar object resources. */
class CalendarObjectTest {

  static byte[] resource(String name) throws IOException {
    try (InputStream in = CalendarObjectTest.class.getResourceAsStream("/invites/" + name)) {
      return in.readAllBytes();
    }
  }

  @Test
  void aZimbraInviteBecomesItsEventsWithTheirExceptionAndTimeZone() throws Exception {
    String text = CalendarObject.calendarText(resource("weekly-meeting.eml"));
    ICalendar resource = CalendarObject.resource(text, ItemType.APPOINTMENT, "fallback");
    String written = CalendarObject.write(resource);
    assertThat(written)
        .doesNotContain("METHOD:")
        .contains("BEGIN:VTIMEZONE")
        .contains("TZID:Europe/Berlin")
        .contains("RRULE:FREQ=WEEKLY;COUNT=1000000;BYDAY=TU")
        .contains("RECURRENCE-ID;TZID=Europe/Berlin:20261110T100000")
        .contains("PARTSTAT=ACCEPTED")
        .contains("TRIGGER;RELATED=START:-PT15M")
        .contains("SUMMARY:Weekly sync (Ünïcödé)");
    assertThat(CalendarObject.uid(resource)).isEqualTo("0f3c2a1e-5b7d-4e8f-9a10-zimbra-weekly");
    ICalendar back = CalendarObject.read(written).get(0);
    assertThat(back.getEvents()).hasSize(2);
    VEvent master = back.getEvents().get(0);
    assertThat(master.getAttendees()).hasSize(3);
    assertThat(master.getAlarms()).hasSize(1);
    assertThat(master.getExceptionDates()).hasSize(1);
  }

  /** A server that drops a rule's defaults (Cyrus, in a time zone's rules) holds the same rule. */
  @Test
  void aRuleWithoutItsDefaultsIsTheSameForVerify() {
    String written =
        String.join(
            "\r\n",
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//x//EN",
            "BEGIN:VTIMEZONE",
            "TZID:Europe/Paris",
            "BEGIN:STANDARD",
            "DTSTART:16010101T030000",
            "TZOFFSETFROM:+0200",
            "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10;WKST=MO",
            "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VEVENT",
            "UID:r",
            "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=Europe/Paris:20261202T090000",
            "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE",
            "END:VEVENT",
            "END:VCALENDAR",
            "");
    String held = written.replace("INTERVAL=1;", "").replace(";WKST=MO", "");
    assertThat(held).isNotEqualTo(written);
    assertThat(DavResource.canonical(ItemType.APPOINTMENT, held))
        .isEqualTo(DavResource.canonical(ItemType.APPOINTMENT, written));
    assertThat(
            DavResource.canonical(
                ItemType.APPOINTMENT, written.replace("INTERVAL=2", "INTERVAL=3")))
        .as("a rule that differs")
        .isNotEqualTo(DavResource.canonical(ItemType.APPOINTMENT, written));
  }

  @Test
  void anEventWithoutUidGetsTheItemsAndAnAllDayEventStaysADate() throws Exception {
    String text = CalendarObject.calendarText(resource("all-day-no-uid.ics"));
    ICalendar resource = CalendarObject.resource(text, ItemType.APPOINTMENT, "item-9@example.org");
    String written = CalendarObject.write(resource);
    assertThat(written).contains("UID:item-9@example.org").contains("DTSTART;VALUE=DATE:20261224");
  }

  @Test
  void aTaskIsItsToDoWithPriorityProgressAndAlarm() throws Exception {
    String text = CalendarObject.calendarText(resource("task.eml"));
    ICalendar resource = CalendarObject.resource(text, ItemType.TASK, "fallback");
    VTodo todo = resource.getTodos().get(0);
    assertThat(todo.getPriority().getValue()).isEqualTo(1);
    assertThat(todo.getPercentComplete().getValue()).isEqualTo(40);
    assertThat(CalendarObject.write(resource))
        .contains("DUE;VALUE=DATE:20261201")
        .contains("VALARM");
  }

  @Test
  void whatIsNotACalendarFailsWithTheReason() {
    byte[] plain =
        "Subject: hi\r\nContent-Type: text/plain\r\n\r\nno calendar here\r\n"
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> CalendarObject.calendarText(plain))
        .isInstanceOf(CalendarObject.Refused.class)
        .hasMessageContaining("no text/calendar part");
    assertThatThrownBy(() ->
            CalendarObject.resource(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", ItemType.TASK, "u"))
        .hasMessageContaining("no VTODO");
    assertThatThrownBy(() -> CalendarObject.resource("garbage", ItemType.APPOINTMENT, "u"))
        .hasMessageContaining("cannot be read");
    String twoUids =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260101T000000Z\r\n"
            + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:20260101T000000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n";
    assertThatThrownBy(() -> CalendarObject.resource(twoUids, ItemType.APPOINTMENT, "u"))
        .hasMessageContaining("several UIDs");
  }
}
