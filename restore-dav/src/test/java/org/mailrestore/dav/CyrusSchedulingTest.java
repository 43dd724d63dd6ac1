package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RecordingJournal;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.testkit.CyrusServer;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * Servers that schedule (RFC 6638) mail a meeting's attendees when the meeting is written as if it
 * were new. A Cyrus with scheduling on (what an administrator's Cyrus does unless told otherwise)
 * does so for what its users write, not for what its admin writes through its view, which is how
 * the target writes into Cyrus: there meetings are written. Through the home template (the admin
 * writing into the owner's calendar, which RFC 6638 servers schedule for the owner) a server that
 * says it schedules gets no meeting unless the administrator allows it.
 */
class CyrusSchedulingTest {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private TestDatabase database;
  private TargetContext context;
  private final ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeEach
  void open() throws Exception {
    TestCyrusDav.server(); // skips, saying why, where Cyrus's httpd is not installed
    database = TestMariaDb.createDatabase();
    RecordingJournal.prepare(database.dataSource());
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    context =
        new TargetContext(
            database.dataSource(),
            S3Profiles.none(registry),
            StorageLimits.DEFAULT,
            registry,
            System.getenv());
  }

  @AfterEach
  void close() throws Exception {
    io.shutdownNow();
    database.close();
  }

  /**
   * Cyrus schedules for the user who writes, not for its admin writing through its view: the
   * restored meeting mails nobody and lands in no attendee's scheduling inbox, while the same kind
   * of meeting written by its organizer as a client does both (the control).
   */
  @Test
  void throughTheAdminsViewAMeetingIsWrittenAndNobodyIsInvited() throws Exception {
    CyrusServer cyrus = CyrusServer.scheduling();
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String owner = "own" + suffix + "@sched.example";
    String guest = "gst" + suffix + "@sched.example";
    try (MailTarget target = TestCyrusDav.target(context, cyrus, Map.of())) {
      target.provisioning().create(Account.ofAddress(guest), guest, guest, false);
      cyrus.setPassword(guest, "pw-" + suffix);
      cyrus.setPassword(owner, "pw-" + suffix);
      assertThat(inbox(cyrus, guest, "pw-" + suffix)).as("the guest's inbox, first").isZero();
      int mailedBefore = cyrus.sent().size();
      RecordingJournal journal = write(target, owner, guest, 1);
      assertThat(journal.failures()).isEmpty();
      assertThat(journal.mappings()).containsOnlyKeys(3000, 3001);
      assertThat(cyrus.sent()).as("invitations mailed").hasSize(mailedBefore);
      assertThat(inbox(cyrus, guest, "pw-" + suffix)).as("invitations delivered").isZero();

      // The control: the owner writing a meeting as a client does is scheduled.
      String ics =
          String.join(
              "\r\n",
              "BEGIN:VCALENDAR",
              "VERSION:2.0",
              "PRODID:-//mailrestore//test//EN",
              "BEGIN:VEVENT",
              "UID:control-" + suffix,
              "DTSTAMP:20261101T000000Z",
              "DTSTART:20261201T090000Z",
              "DTEND:20261201T100000Z",
              "SUMMARY:Control",
              "ORGANIZER:mailto:" + owner,
              "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:" + guest,
              "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:carol@elsewhere.example",
              "END:VEVENT",
              "END:VCALENDAR",
              "");
      HttpResponse<String> put =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(
                          cyrus.davUrl() + "calendars/user/" + owner + "/Default/control.ics"))
                  .header("Authorization", basic(owner, "pw-" + suffix))
                  .header("Content-Type", "text/calendar; charset=utf-8")
                  .PUT(HttpRequest.BodyPublishers.ofString(ics))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
      assertThat(cyrus.sent().size() - mailedBefore + inbox(cyrus, guest, "pw-" + suffix))
          .as("what the owner's own write scheduled (mailed or delivered)")
          .isPositive();
    }
  }

  /** The server's own word, asked of both Cyrus instances: only the one that schedules says so. */
  @Test
  void theServerSaysWhetherItSchedules() throws Exception {
    DavClient admin = new DavClient(HTTP, CyrusServer.ADMIN, CyrusServer.ADMIN_PASSWORD);
    assertThat(admin.capabilities(URI.create(CyrusServer.scheduling().davUrl() + "calendars/")))
        .contains("calendar-access", "calendar-auto-schedule");
    assertThat(admin.capabilities(URI.create(CyrusServer.get().davUrl() + "calendars/")))
        .contains("calendar-access")
        .doesNotContain("calendar-auto-schedule");
  }

  /**
   * Where the administrator's writes are scheduled (a server reached through the home template: RFC
   * 6638 servers schedule for the calendar's owner), a server that says it schedules gets no
   * meeting unless allowed; the refusal says why and what to do. Asked of the real servers.
   */
  @Test
  void whereWritesAreScheduledAMeetingIsRefusedUnlessAllowed() throws Exception {
    DavClient admin = new DavClient(HTTP, CyrusServer.ADMIN, CyrusServer.ADMIN_PASSWORD);
    URI schedules = URI.create(CyrusServer.scheduling().davUrl() + "calendars/");
    URI doesNot = URI.create(CyrusServer.get().davUrl() + "calendars/");
    String refusal =
        new DavServer(
                schedules, admin, new TemplateHomes(schedules, admin, TemplateHomes.DEFAULT), false)
            .meetingRefusal(2);
    assertThat(refusal)
        .contains("calendar-auto-schedule")
        .contains("2 attendee(s)")
        .contains("caldav_allowscheduling: off")
        .contains("--dav-scheduling allow");
    assertThat(
            new DavServer(
                    schedules,
                    admin,
                    new TemplateHomes(schedules, admin, TemplateHomes.DEFAULT),
                    true)
                .meetingRefusal(2))
        .as("allowed")
        .isNull();
    assertThat(
            new DavServer(
                    doesNot, admin, new TemplateHomes(doesNot, admin, TemplateHomes.DEFAULT), false)
                .meetingRefusal(2))
        .as("a server that does not schedule")
        .isNull();
  }

  /** The resources in a user's scheduling inbox, as the user reads it (0 when it has none). */
  private static int inbox(CyrusServer cyrus, String user, String password) throws Exception {
    URI inbox = URI.create(cyrus.davUrl() + "calendars/user/" + user + "/Inbox/");
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(inbox)
                .header("Authorization", basic(user, password))
                .header("Depth", "1")
                .header("Content-Type", "application/xml")
                .method(
                    "PROPFIND",
                    HttpRequest.BodyPublishers.ofString(
                        "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
                            + "<D:resourcetype/></D:prop></D:propfind>"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 404) {
      return 0;
    }
    assertThat(r.statusCode()).as(r.body()).isEqualTo(207);
    return r.body().split("<D:response>", -1).length - 2; // the inbox itself is one
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A meeting the owner organizes with the guest and an outside attendee (3000), and an all-day
   * event (3001), into the owner's Calendar.
   */
  private RecordingJournal write(MailTarget target, String owner, String guest, int seq)
      throws Exception {
    ProvisionedAccount account =
        target.provisioning().create(Account.ofAddress(owner), owner, owner, false);
    Map<String, Object> meeting = new HashMap<>(InviteCalendarTest.weeklyMeeting());
    @SuppressWarnings("unchecked")
    Map<String, Object> series = (Map<String, Object>) meeting.get("inv1");
    series.put("org", Map.of("a", owner));
    series.put("numAt", "2");
    series.put("at0", Map.of("a", guest, "ptst", "NE", "r", "REQ", "v", "1"));
    series.put("at1", Map.of("a", "carol@elsewhere.example", "ptst", "NE", "r", "REQ", "v", "1"));
    try (MailboxWriter writer = target.mailbox(account, new WriteContext(null, io))) {
      RecordingJournal journal = new RecordingJournal(database.dataSource(), owner, seq);
      writer.writeItems(
          new ItemBatch(
              seq,
              List.of(
                  item(3000, InviteCalendarTest.attrs(meeting)),
                  item(3001, InviteCalendarTest.attrs(InviteCalendarTest.allDay()))),
              false),
          journal);
      return journal;
    }
  }

  private static ItemToWrite item(int id, Map<String, String> attrs) {
    int folder = SystemFolder.CALENDAR.id();
    Revision state = Revision.builder(1, 0).folder(folder).attrs(attrs).build();
    return new ItemToWrite(id, ItemType.APPOINTMENT, state, folder, "item " + id, null);
  }
}
