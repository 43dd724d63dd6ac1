package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.mailrestore.imap.ImapAdministration;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.testkit.CyrusServer;

/**
 * The DAV target on a real Cyrus (CalDAV, CardDAV) passes the contract, with contacts; and emptying
 * a home ({@code --replace}) deletes its address books from Cyrus.
 */
class CyrusContactsContractTest extends MailTargetContract {

  /** Cyrus keeps its mailboxes for the JVM's life: each test writes to accounts of its own. */
  private final String domain = "c" + UUID.randomUUID().toString().substring(0, 8) + ".example";

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
    return ItemType.CONTACT;
  }

  /** A contact's picture ({@code PHOTO}, a {@code data:} URI) is kept by Cyrus as written. */
  @Test
  void aContactsPictureIsReadBackFromCyrusAsWritten() throws Exception {
    ProvisionedAccount owner = provision("pia");
    Map<String, String> fields =
        Map.of("firstName", "Pia", "image", "data:image/png;base64," + ContactCardTest.PNG);
    try (MailboxWriter writer = target().mailbox(owner, context())) {
      int work = writeFolders(writer, "pia").get(300);
      Revision state = Revision.builder(1, 0).folder(work).attrs(fields).build();
      RecordingJournal journal = journal("pia", 1);
      writer.writeItems(
          new ItemBatch(
              1,
              List.of(
                  new ItemBatch.ItemToWrite(
                      2000, ItemType.CONTACT, state, work, "item 2000", null)),
              false),
          journal);
      assertThat(journal.failures()).isEmpty();
      var read =
          target().readBack().items(owner, journal.mappings().values()).values().iterator().next();
      assertThat(read.item().revisions().get(0).attrs()).isEqualTo(fields);
    }
  }

  @Test
  void emptyingAHomeDeletesItsAddressBooksFromCyrus() throws Exception {
    CyrusServer cyrus = TestCyrusDav.server();
    ProvisionedAccount owner = provision("kim");
    try (MailboxWriter writer = target().mailbox(owner, context())) {
      writeFolders(writer, "kim");
    }
    String books = "user/kim/#addressbooks/%@" + domain;
    try (ImapAdministration imap =
        ImapAdministration.open(
            cyrus.url(), CyrusServer.ADMIN, CyrusServer.ADMIN_PASSWORD, null, null)) {
      assertThat(imap.list(books)).as("Work and Work/Sub").hasSizeGreaterThanOrEqualTo(2);
      target().provisioning().empty(owner);
      assertThat(imap.list(books)).isEmpty();
    }
    assertThat(target().readBack().countItems(owner)).isZero();
  }
}
