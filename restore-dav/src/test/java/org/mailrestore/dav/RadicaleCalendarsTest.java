package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import biweekly.ICalendar;
import biweekly.component.VEvent;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mailrestore.mail.ItemType;

/**
 * Appointments and tasks into a real Radicale: a calendar and a task list made with their names and
 * colours, each item's calendar object read back with its recurrence, exception, attendees, alarms
 * and time zone; a second run adds nothing; what the server refuses comes back in its words.
 */
class RadicaleCalendarsTest {

  private static DavClient admin;

  @BeforeAll
  static void start() throws Exception {
    TestRadicale.server();
    admin = TestRadicale.admin();
  }

  private static URI collection(String user, String name, String component, String color)
      throws Exception {
    URI principal = TestRadicale.principal(admin, user);
    URI uri = principal.resolve(name + "-" + UUID.randomUUID() + "/");
    DavClient.Answer made = admin.makeCalendar(uri, name, component, color);
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    return uri;
  }

  private static int put(URI collection, ICalendar resource) throws Exception {
    String uid = CalendarObject.uid(resource);
    DavClient.Answer a =
        admin.put(
            collection.resolve(uid.replaceAll("[^A-Za-z0-9@._-]", "_") + ".ics"),
            CalendarObject.write(resource),
            "text/calendar; charset=utf-8",
            true);
    assertThat(a.status()).as(a.body()).isIn(201, 204, 412);
    return a.status() == 412 ? 0 : 1;
  }

  @Test
  void eventsAndTasksAreReadBackAsWrittenAndARerunAddsNothing() throws Exception {
    URI calendar = collection("dave@example.org", "Calendar", "VEVENT", "#1e90ff");
    URI tasks = collection("dave@example.org", "Tasks", "VTODO", null);
    ICalendar weekly =
        CalendarObject.resource(
            CalendarObject.calendarText(CalendarObjectTest.resource("weekly-meeting.eml")),
            ItemType.APPOINTMENT,
            "item-1");
    ICalendar allDay =
        CalendarObject.resource(
            CalendarObject.calendarText(CalendarObjectTest.resource("all-day-no-uid.ics")),
            ItemType.APPOINTMENT,
            "item-2@mailrestore");
    ICalendar task =
        CalendarObject.resource(
            CalendarObject.calendarText(CalendarObjectTest.resource("task.eml")),
            ItemType.TASK,
            "item-3");
    for (int run = 0; run < 2; run++) {
      int created = put(calendar, weekly) + put(calendar, allDay) + put(tasks, task);
      assertThat(created).as("run %d", run + 1).isEqualTo(run == 0 ? 3 : 0);
    }

    Map<String, ICalendar> byUid = new HashMap<>();
    Map<String, String> raw = new HashMap<>();
    for (DavClient.Resource r : admin.calendarObjects(calendar)) {
      ICalendar c = CalendarObject.read(r.data()).get(0);
      byUid.put(CalendarObject.uid(c), c);
      raw.put(CalendarObject.uid(c), r.data());
    }
    assertThat(byUid)
        .containsOnlyKeys("0f3c2a1e-5b7d-4e8f-9a10-zimbra-weekly", "item-2@mailrestore");
    List<VEvent> events = byUid.get("0f3c2a1e-5b7d-4e8f-9a10-zimbra-weekly").getEvents();
    assertThat(events).hasSize(2);
    VEvent master = events.stream().filter(e -> e.getRecurrenceId() == null).findFirst().get();
    VEvent moved = events.stream().filter(e -> e.getRecurrenceId() != null).findFirst().get();
    assertThat(master.getRecurrenceRule().getValue().getCount()).isEqualTo(1_000_000);
    assertThat(master.getAttendees())
        .extracting(a -> a.getParticipationStatus().getValue())
        .containsExactlyInAnyOrder("ACCEPTED", "TENTATIVE", "NEEDS-ACTION");
    assertThat(master.getAlarms()).hasSize(1);
    assertThat(raw.get("0f3c2a1e-5b7d-4e8f-9a10-zimbra-weekly"))
        .as("the time zone, as the server keeps it")
        .contains("BEGIN:VTIMEZONE")
        .contains("DTSTART;TZID=Europe/Berlin:20261103T100000");
    assertThat(moved.getSummary().getValue()).isEqualTo("Weekly sync (moved)");
    assertThat(
            byUid.get("item-2@mailrestore").getEvents().get(0).getDateStart().getValue().hasTime())
        .as("all day")
        .isFalse();

    List<DavClient.Resource> todos = admin.calendarObjects(tasks);
    assertThat(todos).hasSize(1);
    var todo = CalendarObject.read(todos.get(0).data()).get(0).getTodos().get(0);
    assertThat(todo.getPercentComplete().getValue()).isEqualTo(40);
    assertThat(todo.getPriority().getValue()).isEqualTo(1);
  }

  @Test
  void whatTheServerRefusesComesBackInItsWords() throws Exception {
    URI calendar = collection("erin@example.org", "Calendar", "VEVENT", null);
    DavClient.Answer a =
        admin.put(
            calendar.resolve("broken.ics"),
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:not-a-date\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n",
            "text/calendar; charset=utf-8",
            true);
    assertThat(a.ok()).as("status %d", a.status()).isFalse();
    assertThat(a.status()).isBetween(400, 499);
    assertThat(admin.calendarObjects(calendar)).isEmpty();
  }
}
