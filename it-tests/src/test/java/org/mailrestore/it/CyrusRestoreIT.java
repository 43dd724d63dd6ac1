package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mailrestore.testkit.TcpCutProxy;

/**
 * The IMAP scenarios against Cyrus, and several hosts for an IMAP server (issue 41). Cyrus takes
 * that one because its accounts are made beforehand by its admin; Dovecot's are provisioned through
 * the tests' MariaDB on loopback, which another host cannot reach.
 */
class CyrusRestoreIT extends ImapRestoreScenarios {

  @Override
  ImapServers kind() {
    return ImapServers.CYRUS;
  }

  /**
   * The database and two instances on hosts of their own, the server on the test's (reached across
   * the bridge): mid-operation the first instance is cut off from everything, paused past its
   * leases, or killed and started again, while the second goes on. The operation ends COMPLETED and
   * a real client reads every message once.
   */
  @ParameterizedTest
  @EnumSource(SeveralHostsIT.Fault.class)
  void onSeveralHostsOneInstanceFailsAndNothingIsLostOrDoubled(SeveralHostsIT.Fault fault)
      throws Exception {
    Hosts.assumeAvailable();
    ImapServers.Server local = kind().start();
    Path tree = usersOfEnron("badeer-r", "baughman-d", "allen-p");
    String domain = "h" + Long.toHexString(System.nanoTime()) + ".example";
    List<String> logins = logins(tree, domain);
    local.prepare(logins);
    String schema = "mr_imap_hosts_" + Long.toHexString(System.nanoTime());
    try (Hosts hosts = Hosts.create("db", "a", "b");
        TcpCutProxy proxy =
            TcpCutProxy.forward(
                InetAddress.getByName(hosts.gateway()), URI.create(local.url()).getPort())) {
      String database = hosts.startDatabase("db") + schema;
      ImapServers.Server server = local.through("imap://" + hosts.gateway() + ":" + proxy.port());
      List<String> restore =
          new ArrayList<>(
              List.of(
                  "restore",
                  "run",
                  "--maildir",
                  tree.toString(),
                  "--maildir-domain",
                  domain,
                  "--maildir-layout",
                  "plain"));
      restore.addAll(server.targetArgs());
      restore.addAll(List.of("--jdbc-url", database, "--db-user", "root"));
      restore.addAll(List.of("--lease-seconds", "3", "--concurrent-accounts", "1"));
      restore.addAll(List.of("--cluster-size", "100"));
      List<String> paced = new ArrayList<>(restore);
      paced.addAll(List.of("--max-items-per-second", "300"));
      CliProcess first = CliProcess.startOn(hosts, "a", server.environment(), paced);
      String operation = first.operation();
      List<String> joining = new ArrayList<>(restore);
      joining.addAll(List.of("--operation", operation));
      CliProcess second = CliProcess.startOn(hosts, "b", server.environment(), joining);
      awaitJournaled(database, first, 150);

      first =
          fault.strike(
              hosts, first, () -> CliProcess.startOn(hosts, "a", server.environment(), joining));
      fault.awaitCompleted(first, second, database, operation);
    }
    assertSame(
        messages(local.readBack(dir, logins)),
        expected(tree, domain),
        kind() + " on several hosts, the first instance " + fault);
  }

  private static void awaitJournaled(String database, CliProcess first, int atLeast)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      assertThat(first.isAlive())
          .as("the first instance ended early:%n%s", first.output())
          .isTrue();
      assertThat(System.nanoTime()).as("no progress:%n%s", first.output()).isLessThan(deadline);
      try {
        if (Long.parseLong(SeveralHostsIT.query(database, "SELECT COUNT(*) FROM imap_message"))
            >= atLeast) {
          return;
        }
      } catch (SQLException e) {
        // its tables are not made yet
      }
      Thread.sleep(50);
    }
  }
}
