package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.mailrestore.mail.Flags;
import org.mailrestore.source.MailSourceContract;

/** The contracts' reference mailboxes as a Maildir++ tree, for tests that restore them. */
public final class ReferenceMaildir {

  private ReferenceMaildir() {}

  /** Writes the reference mailboxes as Maildir++ (flags in the file names, folders as .A.B). */
  public static void write(Path root, List<MailSourceContract.Mailbox> mailboxes)
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
}
