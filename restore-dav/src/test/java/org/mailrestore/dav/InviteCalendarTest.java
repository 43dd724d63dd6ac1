package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import biweekly.ICalendar;
import biweekly.component.VEvent;
import biweekly.component.VTodo;
import biweekly.property.Attendee;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mailrestore.mail.ItemType;
import org.mailrestore.zimbra.ZimbraMetadata;

/**
 * Appointments and tasks whose invites Zimbra kept only in its metadata, written as Zimbra's {@code
 * CalendarItem.encodeMetadata} writes them (keys and codes of {@code Invite}, {@code ZAttendee},
 * {@code Alarm}, {@code Recurrence}, {@code ICalTimeZone}), made calendar objects.
 */
class InviteCalendarTest {

  /** The item's own date: the stamp of an invite that has none. */
  static final long ITEM_DATE = 1_780_000_000_000L;

  static final String WEEKLY_UID = "8d7e-zimbra-metadata-weekly";

  /** Berlin as Zimbra keeps a time zone: offsets in milliseconds, each change's rule. */
  static Map<String, Object> berlin() {
    return Map.of(
        "#0",
        Map.of(
            "tzid", "Europe/Berlin",
            "so", 3_600_000L,
            "do", 7_200_000L,
            "hd", "true",
            "d2ss", "16010101T030000",
            "d2sr", "FREQ=YEARLY;WKST=MO;INTERVAL=1;BYMONTH=10;BYDAY=-1SU",
            "s2ds", "16010101T020000",
            "s2dr", "FREQ=YEARLY;WKST=MO;INTERVAL=1;BYMONTH=3;BYDAY=-1SU"),
        "W. Europe Standard Time",
        0L);
  }

  /**
   * A weekly meeting in Berlin's time, ten times, one instance cancelled and one moved, with an
   * organizer, two attendees, an alarm, a category and a description of several lines.
   */
  static Map<String, Object> weeklyMeeting() {
    Map<String, Object> master = new HashMap<>();
    master.put("it", 11L);
    master.put("u", WEEKLY_UID);
    master.put("mid", 320L);
    master.put("comp", 0L);
    master.put("status", "CONF");
    master.put("tr", "O");
    master.put("st", "TZID=Europe/Berlin:20261103T100000");
    master.put("et", "TZID=Europe/Berlin:20261103T110000");
    master.put("mthd", "REQUEST");
    master.put("n", "Weekly sync; team, all");
    master.put("l", "Room 1");
    master.put("af", 0x22L);
    master.put("dinM", "true");
    master.put("desc", "Agenda:\nfirst, second; third\\done");
    master.put("frag", "Agenda: first");
    master.put("dts", 1_790_000_000_000L);
    master.put("seq", 2L);
    master.put("tzm", berlin());
    master.put("org", Map.of("a", "ann@example.org", "cn", "Ann Lee"));
    master.put("isOrg", "true");
    master.put("numAt", "2");
    master.put(
        "at0",
        Map.of(
            "a",
            "bob@example.org",
            "cn",
            "Bob, Jr.",
            "r",
            "REQ",
            "ptst",
            "TE",
            "v",
            "1",
            "cut",
            "IND"));
    master.put("at1", Map.of("a", "room1@example.org", "r", "NON", "ptst", "AC", "cut", "ROO"));
    master.put("prio", "5");
    master.put("numAl", 1L);
    master.put("al0", Map.of("ac", "d", "tt", "r", "trd", "s", "tr", "-PT15M", "ds", "Reminder"));
    master.put("numCat", 1L);
    master.put("cat0", "Work");
    master.put(
        "recurrence",
        Map.of(
            "t",
            4L,
            "dts",
            "TZID=Europe/Berlin:20261103T100000",
            "duration",
            "PT1H",
            "add",
            Map.of(
                "nr",
                1L,
                "r0",
                Map.of(
                    "t", 2L,
                    "dts", "TZID=Europe/Berlin:20261103T100000",
                    "dur", "PT1H",
                    "recur", "FREQ=WEEKLY;COUNT=10;INTERVAL=1;BYDAY=TU")),
            "sub",
            Map.of(
                "nr",
                1L,
                "r0",
                Map.of(
                    "t", 5L,
                    "dts", "TZID=Europe/Berlin:20261117T100000",
                    "dur", "PT1H"))));
    Map<String, Object> moved = new HashMap<>();
    moved.put("it", 11L);
    // no "u": the item's is the exception's too
    moved.put("st", "TZID=Europe/Berlin:20261110T140000");
    moved.put("et", "TZID=Europe/Berlin:20261110T150000");
    moved.put("n", "Weekly sync (moved)");
    moved.put("status", "CONF");
    moved.put("rid", Map.of("dt", "TZID=Europe/Berlin:20261110T100000", "r", 1L));
    moved.put("dts", 1_790_000_000_000L);
    moved.put("tzm", berlin());
    // As Zimbra numbers them: the exception may come first.
    return Map.of(
        "u", WEEKLY_UID, "nc", 2L, "inv0", moved, "inv1", master, "tzm", berlin(), "v", 10L);
  }

  static Map<String, Object> allDay() {
    return Map.of(
        "u",
        "zimbra-all-day",
        "nc",
        1L,
        "inv0",
        Map.of(
            "u", "zimbra-all-day",
            "st", "VALUE=DATE:20261224",
            "et", "VALUE=DATE:20261225",
            "af", 0x06L,
            "n", "Holiday",
            "tr", "T"));
  }

  static Map<String, Object> task() {
    return Map.of(
        "nc",
        1L,
        "inv0",
        Map.of(
            "it", 15L,
            "u", "zimbra-task",
            "n", "File the report",
            "st", "TZID=Europe/Berlin:20261201T090000",
            "et", "TZID=Europe/Berlin:20261205T170000",
            "status", "INPR",
            "prio", "1",
            "pctcompl", "40",
            "tzm", berlin()));
  }

  static Map<String, String> attrs(Map<String, Object> metadata) {
    return Map.of(ZimbraMetadata.ATTR, ZimbraMetadata.encode(metadata));
  }

  @Test
  void aWeeklyMeetingBecomesItsSeriesItsExceptionAndItsTimeZone() throws Exception {
    ICalendar resource =
        CalendarObject.withoutContent(
            attrs(weeklyMeeting()), ItemType.APPOINTMENT, "fallback", ITEM_DATE);
    String written = CalendarObject.write(resource);
    assertThat(written)
        .contains("DTSTAMP:20260921T141320Z") // the invites' own stamp, not the item's date
        .doesNotContain("DTSTAMP:20260528T202640Z")
        .contains("BEGIN:VTIMEZONE")
        .contains("TZID:Europe/Berlin")
        .contains("TZOFFSETTO:+0200")
        .contains("DTSTART;TZID=Europe/Berlin:20261103T100000")
        .contains("EXDATE;TZID=Europe/Berlin:20261117T100000")
        .contains("RECURRENCE-ID;TZID=Europe/Berlin:20261110T100000");

    ICalendar back = CalendarObject.read(written).get(0);
    assertThat(CalendarObject.uid(back)).isEqualTo(WEEKLY_UID);
    assertThat(back.getEvents()).hasSize(2);
    VEvent master = back.getEvents().get(0);
    assertThat(master.getRecurrenceId()).as("the series comes first").isNull();
    assertThat(master.getSummary().getValue()).isEqualTo("Weekly sync; team, all");
    assertThat(master.getLocation().getValue()).isEqualTo("Room 1");
    assertThat(master.getDescription().getValue()).isEqualTo("Agenda:\nfirst, second; third\\done");
    assertThat(master.getRecurrenceRule().getValue().getCount()).isEqualTo(10);
    assertThat(master.getRecurrenceRule().getValue().getByDay()).hasSize(1);
    assertThat(master.getStatus().getValue()).isEqualTo("CONFIRMED");
    assertThat(master.getTransparency().getValue()).isEqualTo("OPAQUE");
    assertThat(master.getSequence().getValue()).isEqualTo(2);
    assertThat(master.getPriority().getValue()).isEqualTo(5);
    assertThat(master.getCategories().get(0).getValues()).containsExactly("Work");
    assertThat(master.getOrganizer().getEmail()).isEqualTo("ann@example.org");
    assertThat(master.getOrganizer().getCommonName()).isEqualTo("Ann Lee");
    Attendee bob = master.getAttendees().get(0);
    assertThat(bob.getEmail()).isEqualTo("bob@example.org");
    assertThat(bob.getCommonName()).isEqualTo("Bob, Jr.");
    assertThat(bob.getParticipationStatus().getValue()).isEqualTo("TENTATIVE");
    assertThat(bob.getParticipationLevel())
        .isEqualTo(biweekly.parameter.ParticipationLevel.REQUIRED);
    assertThat(bob.getRsvp()).isTrue();
    Attendee room = master.getAttendees().get(1);
    assertThat(room.getCalendarUserType().getValue()).isEqualTo("ROOM");
    assertThat(room.getParticipationStatus().getValue()).isEqualTo("ACCEPTED");
    assertThat(master.getAlarms())
        .singleElement()
        .satisfies(a -> {
          assertThat(a.getAction().getValue()).isEqualTo("DISPLAY");
          assertThat(a.getTrigger().getDuration().toMillis())
              .isEqualTo(-Duration.ofMinutes(15).toMillis());
        });
    VEvent moved = back.getEvents().get(1);
    assertThat(moved.getSummary().getValue()).isEqualTo("Weekly sync (moved)");
    assertThat(moved.getRecurrenceRule()).isNull();
  }

  @Test
  void anAllDayEventStaysADateAndATaskIsItsToDo() throws Exception {
    String allDay =
        CalendarObject.write(
            CalendarObject.withoutContent(
                attrs(allDay()), ItemType.APPOINTMENT, "fallback", ITEM_DATE));
    assertThat(allDay)
        .contains("DTSTART;VALUE=DATE:20261224")
        .contains("DTEND;VALUE=DATE:20261225")
        .contains("TRANSP:TRANSPARENT")
        .doesNotContain("VTIMEZONE");

    ICalendar task =
        CalendarObject.withoutContent(attrs(task()), ItemType.TASK, "fallback", ITEM_DATE);
    VTodo todo = task.getTodos().get(0);
    assertThat(todo.getSummary().getValue()).isEqualTo("File the report");
    assertThat(todo.getPercentComplete().getValue()).isEqualTo(40);
    assertThat(todo.getPriority().getValue()).isEqualTo(1);
    assertThat(todo.getStatus().getValue()).isEqualTo("IN-PROCESS");
    assertThat(CalendarObject.write(task)).contains("DUE;TZID=Europe/Berlin:20261205T170000");
  }

  @Test
  void aZoneTheMetadataDoesNotDescribeButJavaKnowsIsWrittenInUtc() throws Exception {
    Map<String, Object> meta =
        Map.of(
            "nc",
            1L,
            "inv0",
            Map.of("u", "ny", "n", "Call", "st", "TZID=America/New_York:20260701T090000"));
    String written =
        CalendarObject.write(
            CalendarObject.withoutContent(
                attrs(meta), ItemType.APPOINTMENT, "fallback", ITEM_DATE));
    assertThat(written).contains("DTSTART:20260701T130000Z");
  }

  @Test
  void whatCannotBeCarriedWholeFailsWithTheReason() {
    assertThatThrownBy(() ->
            CalendarObject.withoutContent(
                Map.of(ZimbraMetadata.ATTR, "d1:u3:abc"), ItemType.APPOINTMENT, "x", ITEM_DATE))
        .isInstanceOf(CalendarObject.Refused.class)
        .hasMessageContaining("cannot be read");
    assertThatThrownBy(
            () -> CalendarObject.withoutContent(Map.of(), ItemType.APPOINTMENT, "x", ITEM_DATE))
        .hasMessageContaining("neither iCalendar content nor Zimbra metadata");
    assertThatThrownBy(() ->
            CalendarObject.withoutContent(
                attrs(Map.of("u", "x", "nc", 0L)), ItemType.APPOINTMENT, "x", ITEM_DATE))
        .hasMessageContaining("holds no invite");
    Map<String, Object> unknownRule =
        Map.of(
            "nc",
            1L,
            "inv0",
            Map.of(
                "u", "r",
                "st", "20260701T090000Z",
                "recurrence", Map.of("t", 4L, "add", Map.of("nr", 1L, "r0", Map.of("t", 7L)))));
    assertThatThrownBy(() ->
            CalendarObject.withoutContent(attrs(unknownRule), ItemType.APPOINTMENT, "x", ITEM_DATE))
        .hasMessageContaining("Zimbra's kind 7");
    Map<String, Object> unknownZone =
        Map.of("nc", 1L, "inv0", Map.of("u", "z", "st", "TZID=Mars/Olympus:20260701T090000"));
    assertThatThrownBy(() ->
            CalendarObject.withoutContent(attrs(unknownZone), ItemType.APPOINTMENT, "x", ITEM_DATE))
        .hasMessageContaining("Mars/Olympus");
  }

  @Test
  void aCancelledInstanceAndAnAbsoluteAlarmAreKept() throws Exception {
    Map<String, Object> meta =
        Map.of(
            "nc",
            1L,
            "inv0",
            Map.of(
                "u", "cancelled",
                "mthd", "CANCEL",
                "st", "20260701T090000Z",
                "numAl", 1L,
                "al0", Map.of("ac", "a", "tt", "a", "ta", "20260701T083000Z")));
    VEvent e =
        CalendarObject.withoutContent(attrs(meta), ItemType.APPOINTMENT, "x", ITEM_DATE)
            .getEvents()
            .get(0);
    assertThat(e.getStatus().getValue()).isEqualTo("CANCELLED");
    assertThat(e.getAlarms())
        .singleElement()
        .satisfies(a -> {
          assertThat(a.getAction().getValue()).isEqualTo("AUDIO");
          assertThat(a.getTrigger().getDate()).isNotNull();
        });
    // The invite has no stamp of its own ("dts"): the item's date, not 1970.
    assertThat(e.getDateTimeStamp().getValue().getTime()).isEqualTo(ITEM_DATE);
  }
}
