package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.TcpCutProxy;
import tools.jackson.databind.JsonNode;

/**
 * The IMAP scenarios against Dovecot, and what only Dovecot is set up for: cut connections, quotas.
 */
class DovecotRestoreIT extends ImapRestoreScenarios {

  @Override
  ImapServers kind() {
    return ImapServers.DOVECOT;
  }

  /**
   * Connections cut in the middle of appends (every third one, after 64 KiB sent): the restore
   * retries, finds on the server what a cut append left there, and ends with every message once.
   */
  @Test
  void connectionsCutMidAppendLoseAndDoubleNothing() throws Exception {
    ImapServers.Server direct = ImapServers.DOVECOT.start();
    Path tree = usersOfEnron("allen-p", "arnold-j", "badeer-r", "baughman-d");
    String domain = "f" + Long.toHexString(System.nanoTime()) + ".example";
    try (TcpCutProxy proxy =
        TcpCutProxy.start(java.net.URI.create(direct.url()).getPort(), 3, 64 * 1024)) {
      ImapServers.Server server = direct.through("imap://127.0.0.1:" + proxy.port());
      String out = run(server, args(server, "restore run", tree, domain));
      assertThat(out).contains("COMPLETED").contains(" 0 failed");
      assertThat(proxy.cuts()).as("connections cut").isPositive();
    }
    assertSame(
        messages(direct.readBack(dir, logins(tree, domain))),
        expected(tree, domain),
        "after cut connections");
  }

  /**
   * A service whose target is the server ({@code mailrestore.targets}): a restore posted over REST
   * writes into Dovecot as the command line does, a real client reads every message back once, and
   * the same restore posted again adds nothing.
   */
  @Test
  void aServiceWhoseTargetIsTheServerRestoresIntoItOverRest() throws Exception {
    ImapServers.Server server = ImapServers.DOVECOT.start();
    Path tree = usersOfEnron("allen-p", "badeer-r");
    String domain = "s" + Long.toHexString(System.nanoTime()) + ".example";
    String target = "--mailrestore.targets[0].";
    try (ServiceProcess service =
        ServiceProcess.start(
            own.database(),
            dir,
            dir,
            List.of(
                target + "kind=imap",
                target + "location=" + server.url(),
                target + "options.starttls=never",
                target + "options.provision=sql",
                target + "options.sql-url=" + DovecotServer.get().usersJdbcUrl()),
            server.environment())) {
      assertThat(service.get("/actuator/health/readiness")).contains("UP");
      List<String> restore =
          List.of("restore", "start", "--maildir", tree.toString(), "--maildir-domain", domain);
      List<String> watched = new ArrayList<>(restore);
      watched.add("--watch");
      Cli.Result first = service.cli(watched.toArray(String[]::new));
      assertThat(first.exitCode()).as(first.out() + first.err() + service.output()).isZero();
      assertThat(first.out()).contains("COMPLETED");
      assertSame(
          messages(server.readBack(dir, logins(tree, domain))),
          expected(tree, domain),
          "restored through the service");

      Cli.Result again = service.cli(restore.toArray(String[]::new));
      assertThat(again.exitCode()).as(again.err()).isZero();
      Cli.Result ended = service.cli("restore", "watch", again.operation());
      assertThat(ended.exitCode()).as(ended.out()).isZero();
      JsonNode counts = service.status(again.operation()).path("counts");
      assertThat(counts.path("itemsRestored").asLong()).as("a re-run adds nothing").isZero();
      assertThat(counts.path("itemsSkipped").asLong()).isPositive();
    }
  }

  /**
   * A mailbox over its quota: the messages the server refuses fail one by one with its words
   * ({@code NO [OVERQUOTA]}), the others of that mailbox and the other accounts are restored.
   */
  @Test
  void aMailboxOverQuotaFailsWhatTheServerRefusesAndTheRestGoesOn() throws Exception {
    ImapServers.Server server = ImapServers.DOVECOT.start();
    Path tree = usersOfEnron("arnold-j", "baughman-d");
    String domain = "q" + Long.toHexString(System.nanoTime()) + ".example";
    DovecotServer.get().addUser("arnold-j@" + domain, "*:messages=20");
    CliProcess process = start(server, args(server, "restore run", tree, domain));
    assertThat(process.waitFor(600)).as(process.output()).isEqualTo(1); // partial
    assertThat(process.output()).contains("26 failed");

    try (Connection c = own.database().dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT source_account_id, detail FROM restore_failure"
                    + " WHERE reason = 'TARGET_REFUSED'")) {
      int refused = 0;
      while (rs.next()) {
        refused++;
        assertThat(rs.getString(1)).isEqualTo("arnold-j");
        assertThat(rs.getString(2)).contains("OVERQUOTA");
      }
      assertThat(refused).isEqualTo(26);
    }
    Map<String, Integer> held = messages(server.readBack(dir, logins(tree, domain)));
    Map<String, Integer> expected = expected(tree, domain);
    assertThat(count(held, "arnold-j@")).isEqualTo(20);
    assertThat(only(held, "baughman-d@")).isEqualTo(only(expected, "baughman-d@"));
    assertThat(only(held, "arnold-j@").keySet()).isSubsetOf(expected.keySet());
  }
}
