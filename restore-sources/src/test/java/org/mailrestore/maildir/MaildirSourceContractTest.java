package org.mailrestore.maildir;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.mail.Flags;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.SourceContext;

/** The source contract for trees of Maildir mailboxes, in both layouts. */
class MaildirSourceContractTest {

  /** Writes the reference mailboxes as Maildir++ (flags in the file names, folders as .A.B). */
  static void writeMaildir(Path root, List<MailSourceContract.Mailbox> mailboxes)
      throws IOException {
    for (MailSourceContract.Mailbox m : mailboxes) {
      Path user = root.resolve(m.user());
      for (String sub : List.of("cur", "new", "tmp")) {
        Files.createDirectories(user.resolve(sub));
      }
      for (String folder : m.folders()) {
        Path dir = user.resolve("." + folder.replace('/', '.'));
        for (String sub : List.of("cur", "new", "tmp")) {
          Files.createDirectories(dir.resolve(sub));
        }
      }
      int n = 0;
      for (MailSourceContract.Message message : m.messages()) {
        Path dir =
            message.folder().isEmpty()
                ? user
                : user.resolve("." + message.folder().replace('/', '.'));
        int bits = Flags.toBits(message.flags());
        StringBuilder info = new StringBuilder();
        if ((bits & Flags.FLAGGED) != 0) {
          info.append('F');
        }
        if ((bits & Flags.REPLIED) != 0) {
          info.append('R');
        }
        if ((bits & Flags.UNREAD) == 0) {
          info.append('S');
        }
        Files.write(
            dir.resolve("cur").resolve((1000 + n++) + ".M1P1.host:2," + info), message.content());
      }
    }
  }

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
      writeMaildir(root, mailboxes);
      return reopen();
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
    protected MailSource reopen() throws IOException {
      return MaildirSourceContractTest.open(root, "plain");
    }
  }
}
