package org.mailrestore.restore;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RecordingJournal;
import org.mailrestore.destination.SourceContent;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;

/**
 * An account that exists in the target before a restore, with mail of its own: a folder named
 * {@value #FOLDER} and a message {@value #SUBJECT} in its inbox, written through the target's own
 * interface as its user's client would have put them there.
 */
final class LiveMailbox {

  static final String FOLDER = "Live Folder";
  static final String SUBJECT = "live mail";

  private LiveMailbox() {}

  static ProvisionedAccount create(RestoreFixture f, String name) throws Exception {
    MailTarget target = f.target();
    TargetProvisioning provisioning = target.provisioning();
    String domain = name.substring(name.indexOf('@') + 1);
    provisioning.ensureDomain(new Domain(domain, "active", Map.of()));
    ProvisionedAccount account =
        provisioning.create(Account.ofAddress(name), name, "live-" + name, false);
    RecordingJournal.prepare(f.database.dataSource());
    byte[] mail =
        ("From: x@example.org\r\nSubject: " + SUBJECT + "\r\n\r\nmine\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    BlobDigest digest = BlobDigest.ofContent(mail);
    SourceContent content =
        new SourceContent() {
          @Override
          public int turns() {
            return 1;
          }

          @Override
          public <T> T read(BlobDigest d, long size, Reading<T> reading)
              throws java.io.IOException {
            return reading.read(new ByteArrayInputStream(mail));
          }
        };
    try (ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
        MailboxWriter writer = target.mailbox(account, new WriteContext(content, io))) {
      writer.writeFolders(
          new FolderBatch(
              List.of(
                  new FolderToWrite(
                      1,
                      ItemType.FOLDER,
                      new FolderBatch.Parent.System(SystemFolder.USER_ROOT.id()),
                      FOLDER,
                      Revision.builder(1, 0).folder(1).name(FOLDER).view("message").build(),
                      "live")),
              null,
              Map.of(),
              List.of()),
          new RecordingJournal(f.database.dataSource(), "live-" + name, 0));
      Revision state =
          Revision.builder(1, 0)
              .folder(SystemFolder.INBOX.id())
              .subject(SUBJECT)
              .blob(mail.length, digest)
              .build();
      writer.writeItems(
          new ItemBatch(
              1,
              List.of(
                  new ItemToWrite(
                      2, ItemType.MESSAGE, state, SystemFolder.INBOX.id(), "live", null)),
              false),
          new RecordingJournal(f.database.dataSource(), "live-" + name, 1));
    }
    return account;
  }
}
