package org.mailrestore.imap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Empties a user's mailbox for the replace policy: folders of the user go (deepest first), INBOX
 * and the folders the server will not delete (special use) are emptied instead.
 */
final class MailboxEraser {

  private MailboxEraser() {}

  static void empty(UserSession s) throws IOException {
    ServerFolders folders = ServerFolders.read(s);
    List<String> paths = new ArrayList<>(folders.paths());
    paths.sort(Comparator.comparingInt(String::length).reversed());
    for (String path : paths) {
      boolean deleted =
          !path.equalsIgnoreCase("INBOX")
              && s.run(Command.of("DELETE").mailbox(path)).tagged().isOk();
      if (!deleted) {
        ImapSession.Result selected = s.run(Command.of("SELECT").mailbox(path));
        boolean holdsMail =
            selected.untagged().stream()
                .anyMatch(r -> r.is("EXISTS") && !"0".equals(String.valueOf(r.data().get(0))));
        if (selected.tagged().isOk() && holdsMail) {
          s.ok(Command.of("STORE").text(" 1:* +FLAGS.SILENT (\\Deleted)"));
          s.ok(Command.of("EXPUNGE"));
        }
      }
    }
  }
}
