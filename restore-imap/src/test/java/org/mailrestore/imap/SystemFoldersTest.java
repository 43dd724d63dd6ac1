package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.testkit.CyrusServer;

/**
 * Which server folder a backup's Sent goes to, on a real Cyrus: one that sets a special use per
 * folder on request, as it also shows one wrongly when two folders share a mailbox id.
 */
class SystemFoldersTest {

  private ImapServer server;
  private String user;

  @BeforeEach
  void openServer() throws Exception {
    CyrusServer cyrus = ImapContractTest.cyrus();
    user = "su@s" + UUID.randomUUID().toString().substring(0, 8) + ".example.org";
    cyrus.addUser(user);
    ImapEndpoint.Address address = ImapEndpoint.Address.parse(cyrus.url());
    ImapEndpoint endpoint =
        new ImapEndpoint(
            address.host(),
            address.port(),
            address.implicitTls(),
            ImapEndpoint.StartTls.NEVER,
            null,
            10_000,
            60_000);
    server =
        new ImapServer(
            endpoint,
            new AdminLogin(
                CyrusServer.ADMIN, CyrusServer.ADMIN_PASSWORD, AdminLogin.Method.AUTHZID, null),
            4,
            1);
  }

  /** Creates a plain folder, then has the server show it as {@code \Sent}; returns its path. */
  private String workShownAsSent(UserSession s) throws Exception {
    ServerFolders folders = ServerFolders.read(s);
    String work = folders.child("", "Work");
    folders.create(s, work, null);
    s.ok(Command.of("SETMETADATA").mailbox(work).text(" (/private/specialuse \"\\\\Sent\")"));
    return work;
  }

  @Test
  void aSpecialUseOnAFolderTheRestoreHoldsSomethingElseInIsNotBelieved() throws Exception {
    try (UserSession s = server.open(user)) {
      String work = workShownAsSent(s);
      ServerFolders folders = ServerFolders.read(s);
      // The server does show it: without the restore's own knowledge, Work would be taken.
      assertThat(folders.system(s, SystemFolder.SENT, Set.of())).isEqualTo(work);

      String sent = folders.system(s, SystemFolder.SENT, Set.of(work));

      assertThat(sent).isEqualTo(folders.child("", "Sent")).isNotEqualTo(work);
      assertThat(ServerFolders.read(s).exists(sent)).isTrue();
    }
  }

  @Test
  void aSpecialUseOnAFolderWhoseMailboxIdAnotherFolderHasIsNotBelieved() throws Exception {
    try (UserSession s = server.open(user)) {
      String work = workShownAsSent(s);
      ServerFolders folders = ServerFolders.read(s);
      String id = folders.mailboxId(work);
      assertThat(id).as("Cyrus gives mailbox ids (RFC 8474)").isNotNull();
      s.mailboxIds().note(id, "someone-else: Sent");

      String sent = folders.system(s, SystemFolder.SENT, Set.of());

      assertThat(sent).isEqualTo(folders.child("", "Sent")).isNotEqualTo(work);
    }
  }
}
