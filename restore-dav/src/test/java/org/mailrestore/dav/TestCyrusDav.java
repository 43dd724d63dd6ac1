package org.mailrestore.dav;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.testkit.CyrusServer;

/** The tests' Cyrus with its CalDAV and CardDAV, and the DAV target on it as an admin uses it. */
final class TestCyrusDav {

  private TestCyrusDav() {}

  /** The running server; the test is skipped, saying why, where Cyrus's httpd is not installed. */
  static CyrusServer server() throws Exception {
    Assumptions.assumeTrue(
        CyrusServer.davInstalled(),
        "Cyrus with its httpd (cyrus-common, cyrus-imapd, cyrus-caldav) is not installed, or not"
            + " as root: .ci/run installs it");
    return CyrusServer.get();
  }

  /**
   * The DAV target on the tests' Cyrus: {@code --target dav://127.0.0.1:<port>/dav/
   * --dav-cyrus-imap imap://127.0.0.1:<port>}, with Cyrus's admin in the environment.
   */
  static MailTarget target(TargetContext context) throws Exception {
    return target(context, server(), Map.of());
  }

  /** The DAV target on a given Cyrus, with these options beside {@code cyrus-imap}. */
  static MailTarget target(TargetContext context, CyrusServer cyrus, Map<String, String> options)
      throws Exception {
    Map<String, String> env = new HashMap<>(context.environment());
    env.put(DavKind.USER_ENV, CyrusServer.ADMIN);
    env.put(DavKind.PASSWORD_ENV, CyrusServer.ADMIN_PASSWORD);
    TargetContext withAdmin =
        new TargetContext(
            context.bookkeeping(), context.s3(), context.limits(), context.registry(), env);
    String dav = "dav" + cyrus.davUrl().substring("http".length());
    Map<String, String> all = new HashMap<>(options);
    all.put(DavKind.CYRUS_IMAP, cyrus.url());
    return TargetSpec.of(DavKind.NAME, dav, all).open(withAdmin);
  }
}
