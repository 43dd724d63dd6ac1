package org.mailrestore.zimbra;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.SourceContext;
import org.mailrestore.testkit.ScratchSpace;

/** The source contract for a directory of Zimbra account archives, one per mailbox. */
class ZimbraTgzSourceContractTest extends MailSourceContract {

  private Path root;

  @Override
  protected MailSource open(Path root, List<Mailbox> mailboxes) throws IOException {
    this.root = root.resolve("archives");
    for (Mailbox m : mailboxes) {
      ArchiveBuilder b = new ArchiveBuilder();
      b.folder(2, "/Inbox");
      int id = 257;
      for (String folder : m.folders()) {
        b.folder(id++, "/" + folder);
      }
      for (Message message : m.messages()) {
        String folder = message.folder().isEmpty() ? "/Inbox" : "/" + message.folder();
        b.message(id++, folder, message.content(), message.flags(), null);
      }
      b.write(this.root.resolve(m.user() + "@" + DOMAIN + ".tgz"));
    }
    return reopen();
  }

  /** Bob's archive is cut short: its end is reported, its start is read, alice's is whole. */
  @Override
  protected Optional<MailSource> openDamaged(Path dir, List<Mailbox> mailboxes) throws IOException {
    var unused = open(dir, mailboxes);
    unused.close();
    Path bob = root.resolve("bob@" + DOMAIN + ".tgz");
    byte[] whole = Files.readAllBytes(bob);
    Files.write(bob, java.util.Arrays.copyOf(whole, whole.length / 2));
    return Optional.of(reopen());
  }

  @Override
  protected boolean remove(Path root) {
    ScratchSpace.deleteTree(root);
    return true;
  }

  @Override
  protected MailSource reopen() throws IOException {
    return ZimbraTgzKind.local(root)
        .open(
            new SourceContext(
                S3Profiles.none(new SimpleMeterRegistry()),
                StorageLimits.DEFAULT,
                new SimpleMeterRegistry(),
                null));
  }
}
