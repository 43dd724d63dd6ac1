package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RecordingJournal;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.Passing;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * What the DAV target does with items a calendar server cannot take as they are, on a real
 * Radicale: each fails alone with a reason a person can act on, and the rest of the cluster is
 * written.
 */
class DavWriterTest {

  private TestDatabase database;
  private MailTarget target;
  private final ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeEach
  void open() throws Exception {
    database = TestMariaDb.createDatabase();
    RecordingJournal.prepare(database.dataSource());
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    target =
        TestRadicale.target(
            new TargetContext(
                database.dataSource(),
                S3Profiles.none(registry),
                StorageLimits.DEFAULT,
                registry,
                System.getenv()));
  }

  @AfterEach
  void close() throws Exception {
    io.shutdownNow();
    target.close();
    database.close();
  }

  @Test
  void anEventOfAUidTheCalendarHoldsAlreadyAndOneWithoutCalendarFailAlone() throws Exception {
    String name = "w" + UUID.randomUUID().toString().substring(0, 8) + "@writer.example";
    ProvisionedAccount account =
        target.provisioning().create(Account.ofAddress(name), name, name, false);
    byte[] first = invite("same-uid@example.org", "First");
    byte[] second = invite("same-uid@example.org", "Second, same UID");
    byte[] plain = "Subject: no calendar\r\n\r\njust text\r\n".getBytes(StandardCharsets.UTF_8);
    try (MailboxWriter writer = target.mailbox(account, new WriteContext(null, io))) {
      List<ItemToWrite> items =
          List.of(item(writer, 1000, first), item(writer, 1001, second), item(writer, 1002, plain));
      RecordingJournal journal = new RecordingJournal(database.dataSource(), name, 1);
      writer.writeItems(new ItemBatch(1, items, false), journal);
      assertThat(journal.mappings()).containsOnlyKeys(1000);
      assertThat(journal.failures())
          .extracting(RecordingJournal.Failure::oldId, RecordingJournal.Failure::reason)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(1001, FailureReason.TARGET_REFUSED),
              org.assertj.core.groups.Tuple.tuple(1002, FailureReason.INVALID_ITEM));
      assertThat(journal.failures())
          .anySatisfy(f -> assertThat(f.detail()).contains("same-uid@example.org"))
          .anySatisfy(f -> assertThat(f.detail()).contains("no text/calendar part"));

      // A later cluster with the same UID again: the recorded resource is another item's.
      RecordingJournal later = new RecordingJournal(database.dataSource(), name, 2);
      writer.writeItems(
          new ItemBatch(
              2, List.of(item(writer, 1003, invite("same-uid@example.org", "Third"))), false),
          later);
      assertThat(later.mappings()).isEmpty();
      assertThat(later.failures())
          .singleElement()
          .satisfies(f -> assertThat(f.reason()).isEqualTo(FailureReason.TARGET_REFUSED));
    }
    assertThat(target.readBack().countItems(account)).isEqualTo(1);
  }

  /**
   * An archive's appointment without content: its invites are read from its Zimbra metadata and the
   * server holds the series and its exception. One whose recurrence cannot be read whole, and one
   * with neither content nor metadata, fail alone with the reason.
   */
  @Test
  void anAppointmentKnownOnlyByItsZimbraMetadataIsWrittenFromItsInvites() throws Exception {
    String name = "m" + UUID.randomUUID().toString().substring(0, 8) + "@writer.example";
    ProvisionedAccount account =
        target.provisioning().create(Account.ofAddress(name), name, name, false);
    Map<String, Object> unreadableRule =
        Map.of(
            "nc",
            1L,
            "inv0",
            Map.of(
                "u", "unread-rule",
                "st", "20260701T090000Z",
                "recurrence", Map.of("t", 4L, "add", Map.of("nr", 1L, "r0", Map.of("t", 7L)))));
    try (MailboxWriter writer = target.mailbox(account, new WriteContext(null, io))) {
      List<ItemToWrite> items =
          List.of(
              metadataOnly(1000, InviteCalendarTest.attrs(InviteCalendarTest.weeklyMeeting())),
              metadataOnly(1001, InviteCalendarTest.attrs(unreadableRule)),
              metadataOnly(1002, Map.of()));
      RecordingJournal journal = new RecordingJournal(database.dataSource(), name, 1);
      writer.writeItems(new ItemBatch(1, items, false), journal);
      assertThat(journal.mappings()).containsOnlyKeys(1000);
      assertThat(journal.failures())
          .extracting(RecordingJournal.Failure::oldId, RecordingJournal.Failure::reason)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(1001, FailureReason.INVALID_ITEM),
              org.assertj.core.groups.Tuple.tuple(1002, FailureReason.INVALID_ITEM));
      assertThat(journal.failures())
          .anySatisfy(f -> assertThat(f.detail()).contains("Zimbra's kind 7"))
          .anySatisfy(f -> assertThat(f.detail()).contains("neither iCalendar content"));
    }
    DavClient admin = TestRadicale.admin();
    List<DavClient.Resource> held =
        admin.calendarObjects(TestRadicale.principal(admin, name).resolve("calendar/"));
    assertThat(held).hasSize(1);
    biweekly.ICalendar read = CalendarObject.read(held.get(0).data()).get(0);
    assertThat(CalendarObject.uid(read)).isEqualTo(InviteCalendarTest.WEEKLY_UID);
    assertThat(read.getEvents()).hasSize(2);
    assertThat(read.getEvents().get(0).getRecurrenceRule().getValue().getCount()).isEqualTo(10);
    assertThat(held.get(0).data()).contains("BEGIN:VTIMEZONE");
    assertThat(target.readBack().countItems(account)).isEqualTo(1);
  }

  /** An appointment without content, as an archive's item whose invites are in its metadata. */
  private static ItemToWrite metadataOnly(int id, Map<String, String> attrs) {
    int folder = SystemFolder.CALENDAR.id();
    Revision state = Revision.builder(1, 0).folder(folder).attrs(attrs).build();
    return new ItemToWrite(id, ItemType.APPOINTMENT, state, folder, "item " + id, null);
  }

  /**
   * In a composition the target's records commit before the engine's journal (the part does not
   * commit it): after a crash between the two, the cluster comes again in doubt and finds its
   * collections and resources recorded. They keep their ids, nothing is written twice, and nothing
   * is taken for another item's.
   */
  @Test
  void aClusterWhoseRecordsCommittedButNotItsJournalIsFoundWhole() throws Exception {
    String name = "c" + UUID.randomUUID().toString().substring(0, 8) + "@writer.example";
    ProvisionedAccount account =
        target.provisioning().create(Account.ofAddress(name), name, name, false);
    try (MailboxWriter writer = target.mailbox(account, new WriteContext(null, io))) {
      FolderBatch folders =
          new FolderBatch(
              List.of(
                  new FolderBatch.FolderToWrite(
                      300,
                      ItemType.FOLDER,
                      new FolderBatch.Parent.System(SystemFolder.USER_ROOT.id()),
                      "Team calendar",
                      Revision.builder(1, 0)
                          .folder(1)
                          .name("Team calendar")
                          .view("appointment")
                          .build(),
                      "team")),
              null,
              Map.of(),
              List.of());
      RecordingJournal lostFolders = new RecordingJournal(database.dataSource(), name, 0);
      writer.writeFolders(folders, asAPart(lostFolders));
      RecordingJournal foldersAgain = new RecordingJournal(database.dataSource(), name, 0);
      writer.writeFolders(folders, foldersAgain);
      assertThat(foldersAgain.mappings()).containsKey(300);
      int calendar = foldersAgain.mappings().get(300);
      assertThat(lostFolders.mappings()).containsEntry(300, calendar);

      List<ItemToWrite> items =
          List.of(
              item(writer, 1000, invite("a@example.org", "A"), calendar),
              item(writer, 1001, invite("b@example.org", "B"), calendar));
      RecordingJournal lost = new RecordingJournal(database.dataSource(), name, 1);
      writer.writeItems(new ItemBatch(1, items, false), asAPart(lost));
      RecordingJournal again = new RecordingJournal(database.dataSource(), name, 1);
      writer.writeItems(new ItemBatch(1, items, true), again);
      assertThat(again.failures()).isEmpty();
      assertThat(again.mappings()).isEqualTo(lost.mappings()).hasSize(2);
    }
    assertThat(target.readBack().countItems(account)).as("a calendar and two events").isEqualTo(3);
  }

  /** A journal as a composition's part sees it: its record is not the part's to commit. */
  private static org.mailrestore.destination.ClusterJournal asAPart(RecordingJournal real) {
    return new org.mailrestore.destination.ClusterJournal() {
      @Override
      public int seq() {
        return real.seq();
      }

      @Override
      public void restored(FolderBatch.FolderToWrite folder, int newId) {
        real.restored(folder, newId);
      }

      @Override
      public void restored(FolderBatch.TagToWrite tag, int newId) {
        real.restored(tag, newId);
      }

      @Override
      public void restored(ItemToWrite item, int newId) {
        real.restored(item, newId);
      }

      @Override
      public void sameAs(FolderBatch.TagToWrite tag, int existingId) {
        real.sameAs(tag, existingId);
      }

      @Override
      public void mapped(int oldId, int newId) {
        real.mapped(oldId, newId);
      }

      @Override
      public void failed(ItemToWrite item, FailureReason reason, String detail) {
        real.failed(item, reason, detail);
      }

      @Override
      public void renamed(FolderBatch.FolderToWrite folder, String name, String detail) {
        real.renamed(folder, name, detail);
      }

      @Override
      public void dedupHits(long count) {}

      @Override
      public void writeIn(java.sql.Connection connection) {}

      @Override
      public void commit() {}
    };
  }

  private static ItemToWrite item(MailboxWriter writer, int id, byte[] content) throws Exception {
    return item(writer, id, content, SystemFolder.CALENDAR.id());
  }

  /** An appointment whose content passes now, staged as the engine stages it. */
  private static ItemToWrite item(MailboxWriter writer, int id, byte[] content, int folder)
      throws Exception {
    ItemBatch.Staged staged = writer.stage(ItemType.APPOINTMENT, passing(content), null);
    Revision state =
        Revision.builder(1, 0)
            .folder(folder)
            .blob(content.length, BlobDigest.ofContent(content))
            .build();
    return new ItemToWrite(id, ItemType.APPOINTMENT, state, folder, "item " + id, staged);
  }

  private static byte[] invite(String uid, String summary) {
    return String.join(
            "\r\n",
            "Content-Type: text/calendar; charset=utf-8",
            "",
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//mailrestore//test//EN",
            "BEGIN:VEVENT",
            "UID:" + uid,
            "DTSTAMP:20240102T030405Z",
            "DTSTART:20240105T090000Z",
            "DTEND:20240105T100000Z",
            "SUMMARY:" + summary,
            "END:VEVENT",
            "END:VCALENDAR",
            "")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static Passing passing(byte[] bytes) {
    return new Passing() {
      @Override
      public java.io.InputStream open() {
        return new java.io.ByteArrayInputStream(bytes);
      }

      @Override
      public long size() {
        return bytes.length;
      }

      @Override
      public String describe() {
        return "test content";
      }
    };
  }
}
