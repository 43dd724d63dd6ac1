package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.testkit.RadicaleServer;

/** The tests' Radicale and its administrator's client: what each DAV test starts from. */
final class TestRadicale {

  private TestRadicale() {}

  /** The running server; the test is skipped, saying why, where Radicale is not installed. */
  static RadicaleServer server() throws Exception {
    Assumptions.assumeTrue(RadicaleServer.installed(), "radicale is not installed: .ci/run does");
    return RadicaleServer.get();
  }

  /** The administrator who restores, as its rights file lets it: into every user's collections. */
  static DavClient admin() {
    return new DavClient(
        HttpClient.newHttpClient(), RadicaleServer.ADMIN, RadicaleServer.ADMIN_PASSWORD);
  }

  /**
   * The DAV target on the tests' Radicale, as {@code --target dav://127.0.0.1:<port>/} with the
   * administrator's credentials in the environment.
   */
  static MailTarget target(TargetContext context) throws Exception {
    RadicaleServer radicale = server();
    Map<String, String> env = new HashMap<>(context.environment());
    env.put(DavKind.USER_ENV, RadicaleServer.ADMIN);
    env.put(DavKind.PASSWORD_ENV, RadicaleServer.ADMIN_PASSWORD);
    TargetContext withAdmin =
        new TargetContext(
            context.bookkeeping(), context.s3(), context.limits(), context.registry(), env);
    return TargetSpec.of(DavKind.NAME, "dav://127.0.0.1:" + radicale.port() + "/", Map.of())
        .open(withAdmin);
  }

  /** A user's principal collection, made by the administrator when it is not there yet. */
  static URI principal(DavClient admin, String user) throws Exception {
    URI principal = URI.create(server().url() + user + "/");
    DavClient.Answer home = admin.makeCollection(principal);
    assertThat(home.status()).as(home.body()).isIn(201, 405); // 405: it is there
    return principal;
  }
}
