package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RecordingJournal;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.testkit.CyrusServer;

/**
 * The DAV target on a real Cyrus (CalDAV, CardDAV) passes the contract, with appointments; and a
 * calendar shared with a user is theirs to read as a client reads it (decision 0051).
 */
class CyrusAppointmentsContractTest extends MailTargetContract {

  /** Cyrus keeps its mailboxes for the JVM's life: each test writes to accounts of its own. */
  private final String domain = "a" + UUID.randomUUID().toString().substring(0, 8) + ".example";

  @Override
  protected MailTarget open(TargetContext context) throws Exception {
    return TestCyrusDav.target(context);
  }

  @Override
  protected String domain() {
    return domain;
  }

  @Override
  protected ItemType contentType() {
    return ItemType.APPOINTMENT;
  }

  /**
   * A grant to a user is an ACL entry on the calendar: its grantee, logged in as themselves, reads
   * the calendar through their own view of it; a user without a grant is refused.
   */
  @Test
  void aCalendarSharedWithAUserIsReadByThemAlone() throws Exception {
    CyrusServer cyrus = TestCyrusDav.server();
    ProvisionedAccount owner = provision("hal");
    ProvisionedAccount grantee = provision("ivy");
    ProvisionedAccount other = provision("joe");
    Map<Integer, Integer> folders;
    try (MailboxWriter writer = target().mailbox(owner, context())) {
      folders = writeFolders(writer, "hal");
    }
    int work = folders.get(300);
    Grant grant = new Grant(work, GranteeType.USER, grantee.id(), grantee.name(), "r");
    assertThat(target().shares().grant(owner, work, grant, grantee.id())).isTrue();
    assertThat(target().readBack().grants(owner))
        .containsExactly(new Grant(work, GranteeType.USER, grantee.id(), grantee.id(), "r"));

    assertThat(propfind(cyrus, grantee.id(), owner.id())).isEqualTo(207);
    assertThat(propfind(cyrus, other.id(), owner.id())).isEqualTo(403);
  }

  /**
   * An archive's appointment without content, its invites only in its Zimbra metadata (a series in
   * Berlin's time with an exception, attendees and an alarm): Cyrus takes the calendar object made
   * from them, and holds it once after the cluster is written again.
   */
  @Test
  void anAppointmentKnownOnlyByItsZimbraMetadataIsTakenByCyrus() throws Exception {
    ProvisionedAccount owner = provision("kim");
    try (MailboxWriter writer = target().mailbox(owner, context())) {
      int work = writeFolders(writer, "kim").get(300);
      Revision state =
          Revision.builder(1, 0)
              .folder(work)
              .attrs(InviteCalendarTest.attrs(InviteCalendarTest.weeklyMeeting()))
              .build();
      ItemBatch.ItemToWrite item =
          new ItemBatch.ItemToWrite(2000, ItemType.APPOINTMENT, state, work, "item 2000", null);
      for (int run = 0; run < 2; run++) {
        RecordingJournal journal = journal("kim", run + 1);
        writer.writeItems(new ItemBatch(run + 1, List.of(item), false), journal);
        assertThat(journal.failures()).as("run %d", run + 1).isEmpty();
        assertThat(journal.mappings()).containsOnlyKeys(2000);
      }
    }
    assertThat(target().readBack().countItems(owner))
        .as("the calendars Work and Sub, the tag, and the appointment once")
        .isEqualTo(4);
  }

  /** A {@code PROPFIND} of the owner's calendar Work (300) as {@code user}, in their own view. */
  private static int propfind(CyrusServer cyrus, String user, String owner) throws Exception {
    String password = "pw-" + UUID.randomUUID();
    cyrus.setPassword(user, password);
    URI calendar =
        URI.create(cyrus.davUrl() + "calendars/user/" + user + "/" + owner + ".work-300/");
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(calendar)
                    .header(
                        "Authorization",
                        "Basic "
                            + Base64.getEncoder()
                                .encodeToString(
                                    (user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                    .header("Depth", "0")
                    .header("Content-Type", "application/xml")
                    .method(
                        "PROPFIND",
                        HttpRequest.BodyPublishers.ofString(
                            "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
                                + "<D:displayname/></D:prop></D:propfind>"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return r.statusCode();
  }
}
