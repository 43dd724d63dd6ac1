package org.mailrestore.imap;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.restore.ReadBackContract;
import org.mailrestore.testkit.DovecotServer;

/**
 * A Dovecot server read back over IMAP (what verify and export read) passes the source contract.
 */
class ImapReadBackContractTest extends ReadBackContract {

  @Override
  protected List<TargetSpec> targets(Path dir) throws Exception {
    assumeTrue(
        DovecotServer.installed(),
        "Dovecot (dovecot-imapd, dovecot-mysql) is not installed: .ci/run installs it");
    DovecotServer dovecot = DovecotServer.get();
    return List.of(
        TargetSpec.of(
            ImapKind.NAME,
            dovecot.url(),
            Map.of(
                ImapKind.STARTTLS, "never",
                ImapKind.PROVISION, "sql",
                ImapKind.SQL_URL, dovecot.usersJdbcUrl())));
  }

  @Override
  protected Map<String, String> environment() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put(ImapKind.USER_ENV, DovecotServer.MASTER);
    env.put(ImapKind.PASSWORD_ENV, DovecotServer.MASTER_PASSWORD);
    return env;
  }
}
