package org.mailrestore.maildir;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.SourceContext;
import org.mailrestore.testkit.ScratchSpace;

/** The source contract for trees of Maildir mailboxes, in both layouts. */
class MaildirSourceContractTest {

  /** Writes the reference mailboxes in the plain layout: a directory per folder, no flags. */
  static void writePlain(Path root, List<MailSourceContract.Mailbox> mailboxes) throws IOException {
    for (MailSourceContract.Mailbox m : mailboxes) {
      Path user = root.resolve(m.user());
      Files.createDirectories(user);
      for (String folder : m.folders()) {
        Files.createDirectories(user.resolve(folder));
      }
      int n = 0;
      for (MailSourceContract.Message message : m.messages()) {
        Path dir = message.folder().isEmpty() ? user : user.resolve(message.folder());
        Files.write(dir.resolve((++n) + "."), message.content());
      }
    }
  }

  static MailSource open(Path root, String layout) throws IOException {
    return MaildirSourceKind.of(root, MailSourceContract.DOMAIN, layout)
        .open(
            new SourceContext(
                S3Profiles.none(new SimpleMeterRegistry()),
                StorageLimits.DEFAULT,
                new SimpleMeterRegistry(),
                null));
  }

  @Nested
  class MaildirPlusPlus extends MailSourceContract {
    private Path root;

    @Override
    protected MailSource open(Path dir, List<Mailbox> mailboxes) throws IOException {
      root = dir.resolve("tree");
      ReferenceMaildir.write(root, mailboxes);
      return reopen();
    }

    /** A message file of alice's is a symbolic link: not followed, and reported. */
    @Override
    protected Optional<MailSource> openDamaged(Path dir, List<Mailbox> mailboxes)
        throws IOException {
      root = dir.resolve("tree");
      ReferenceMaildir.write(root, mailboxes);
      Path outside = Files.writeString(dir.resolve("outside"), "Subject: not here\n\nbody\n");
      Files.createSymbolicLink(root.resolve("alice/cur/9999.M1P1.host:2,S"), outside);
      return Optional.of(reopen());
    }

    @Override
    protected boolean remove(Path root) {
      ScratchSpace.deleteTree(root);
      return true;
    }

    @Override
    protected MailSource reopen() throws IOException {
      return MaildirSourceContractTest.open(root, "auto");
    }
  }

  @Nested
  class Plain extends MailSourceContract {
    private Path root;

    @Override
    protected MailSource open(Path dir, List<Mailbox> mailboxes) throws IOException {
      root = dir.resolve("tree");
      // A plain tree keeps no flags: the reference is laid out without them.
      writePlain(root, mailboxes.stream().map(Plain::unflagged).toList());
      return reopen();
    }

    /** A message file of alice's is a symbolic link: not followed, and reported. */
    @Override
    protected Optional<MailSource> openDamaged(Path dir, List<Mailbox> mailboxes)
        throws IOException {
      var unused = open(dir, mailboxes);
      unused.close();
      Path outside = Files.writeString(dir.resolve("outside"), "Subject: not here\n\nbody\n");
      Files.createSymbolicLink(root.resolve("alice/999."), outside);
      return Optional.of(reopen());
    }

    private static Mailbox unflagged(Mailbox m) {
      return new Mailbox(
          m.user(),
          m.folders(),
          m.messages().stream().map(x -> new Message(x.folder(), x.content(), "")).toList());
    }

    @Override
    protected List<Mailbox> mailboxes() {
      return super.mailboxes().stream().map(Plain::unflagged).toList();
    }

    @Override
    protected boolean remove(Path root) {
      ScratchSpace.deleteTree(root);
      return true;
    }

    @Override
    protected MailSource reopen() throws IOException {
      return MaildirSourceContractTest.open(root, "plain");
    }
  }
}
