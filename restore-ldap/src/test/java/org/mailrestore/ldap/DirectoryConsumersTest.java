package org.mailrestore.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.imap.ImapKind;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.LocalDaemons;
import org.mailrestore.testkit.SlapdServer;
import org.mailrestore.verify.Verifier;

/**
 * The proof is a real consumer of the directory. One operation puts the accounts into slapd and the
 * mail into a Dovecot that reads its users from that slapd (dovecot-ldap); then a restored user
 * logs in to Dovecot with the clear password whose hash the backup held (a wrong one is refused),
 * and Postfix's own postmap resolves a restored alias and a list through ldap: tables
 * (postfix-ldap). verify over both targets is clean.
 */
class DirectoryConsumersTest {

  @TempDir Path dir;

  @BeforeAll
  static void servers() {
    assumeTrue(SlapdServer.installed(), "slapd and ldap-utils are not installed: .ci/run does");
    assumeTrue(
        DovecotServer.installed()
            && Files.exists(Path.of("/usr/lib/dovecot/modules/auth/libauthdb_ldap.so")),
        "Dovecot with dovecot-ldap is not installed: .ci/run installs it");
    assumeTrue(
        Files.isExecutable(Path.of("/usr/sbin/postmap"))
            && Files.exists(Path.of("/usr/lib/postfix/postfix-ldap.so")),
        "Postfix with postfix-ldap is not installed: .ci/run installs it");
  }

  @ParameterizedTest
  @ValueSource(strings = {InetOrgPersonLayout.NAME, ZimbraLayout.NAME})
  void dovecotLogsInARestoredUserAndPostfixResolvesItsAliasAndList(String schema) throws Exception {
    SlapdServer slapd = SlapdServer.get();
    String base = slapd.newBase("consumers-" + schema);
    // The master user's lookups go through the same filter (pass = yes): an account made locked
    // has no password, so it is found for the restore and still nobody logs in as it.
    DovecotServer dovecot =
        schema.equals(ZimbraLayout.NAME)
            ? DovecotServer.withLdapUsers(
                slapd,
                base,
                "(&(objectClass=zimbraAccount)(zimbraMailDeliveryAddress=%u))",
                "zimbraMailDeliveryAddress")
            : DovecotServer.withLdapUsers(
                slapd, base, "(&(objectClass=inetOrgPerson)(mail=%u))", "mail");
    try {
      // With shares: phase 3's grants name their grantees by address, which Dovecot resolves
      // through the directory.
      Path backup = DirectoryBackups.generateWithUserGrant(dir, 4);
      List<String> addresses = DirectoryBackups.withPasswords(backup);
      TargetSpec directory = DirectoryBackups.directory(slapd.url(), base, schema, Map.of());
      TargetSpec imap = TargetSpec.of(ImapKind.NAME, dovecot.url(), Map.of("starttls", "never"));
      Map<String, String> env = DirectoryBackups.environment();
      env.put(ImapKind.USER_ENV, DovecotServer.MASTER);
      env.put(ImapKind.PASSWORD_ENV, DovecotServer.MASTER_PASSWORD);
      try (RestoreFixture f =
          new RestoreFixture(
              List.of(imap, directory),
              false,
              RestoreEngine.DEFAULT_LEASE_SECONDS,
              PathFence.NONE,
              env)) {
        OperationSummary s = f.restore(RestoreRequest.local(backup.toString()));
        assertThat(s.counts().itemsFailed()).as(s.message()).isZero();
        assertThat(s.counts().accountsFailed()).as(s.message()).isZero();
        assertThat(s.state()).isIn(OperationState.COMPLETED, OperationState.PARTIAL);
        assertThat(s.counts().itemsRestored()).isPositive();
        // Grants are compared as IMAP keeps them (docs/imap-target.md): no group's, no x right.
        assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
        // A grant to a user names that user as Dovecot knows it: by the address in the directory.
        List<String> granted = new java.util.ArrayList<>();
        for (String owner : addresses) {
          var held = f.store().account(owner).orElseThrow();
          for (var grant : f.store().grants(held.ref())) {
            if (grant.granteeType() == org.mailrestore.mail.GranteeType.USER) {
              granted.add(grant.granteeId());
            }
          }
        }
        assertThat(granted)
            .containsExactlyInAnyOrderElementsOf(DirectoryBackups.userGrantees(backup));
      }

      String alice = addresses.get(0);
      assertThat(login(dovecot.port(), alice, DirectoryBackups.clearPassword(alice)))
          .as("the backup's {SSHA} hash logs in with its clear password")
          .startsWith("a OK");
      String bob = addresses.get(1);
      assertThat(login(dovecot.port(), bob, DirectoryBackups.clearPassword(bob)))
          .as("{SSHA512}")
          .startsWith("a OK");
      String carol = addresses.get(2);
      assertThat(login(dovecot.port(), carol, DirectoryBackups.clearPassword(carol)))
          .as("{CRYPT} (SHA-512 crypt)")
          .startsWith("a OK");
      assertThat(login(dovecot.port(), alice, "not-the-password")).startsWith("a NO");
      String locked = addresses.get(addresses.size() - 1);
      assertThat(login(dovecot.port(), locked, DirectoryBackups.clearPassword(locked)))
          .as("an account without a hash in the backup was made locked")
          .startsWith("a NO");

      String alias =
          Json.MAPPER
              .readTree(DirectoryBackups.accountFiles(backup).get(alice).toFile())
              .get("aliases")
              .get(0)
              .asString();
      Path postfix = postfixTables(slapd, base, schema);
      assertThat(postmap(postfix, alias, "aliases.cf")).isEqualTo(alice);
      String domain = alice.substring(alice.indexOf('@') + 1);
      Path listFile;
      try (var lists = Files.list(backup.resolve("lists"))) {
        listFile =
            lists
                .filter(p -> p.getFileName().toString().contains(domain))
                .findFirst()
                .orElseThrow();
      }
      String list = Json.MAPPER.readTree(listFile.toFile()).get("address").asString();
      List<String> members = addresses.stream().filter(a -> a.endsWith("@" + domain)).toList();
      assertThat(List.of(postmap(postfix, list, "lists.cf").split(",")))
          .containsExactlyInAnyOrderElementsOf(members);
    } finally {
      dovecot.stop();
    }
  }

  /** IMAP LOGIN on a socket: the tagged answer. */
  private static String login(int port, String user, String password) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      var in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      OutputStream out = socket.getOutputStream();
      in.readLine();
      out.write(
          ("a LOGIN \"" + user + "\" \"" + password + "\"\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("a ")) {
          return line;
        }
      }
      return "(closed)";
    }
  }

  /** Postfix ldap: tables as a site writes them: an alias map and a list map. */
  private Path postfixTables(SlapdServer slapd, String base, String schema) throws Exception {
    Path conf = dir.resolve("postfix");
    Files.createDirectories(conf);
    Files.writeString(conf.resolve("main.cf"), "compatibility_level = 3.6\n");
    String common =
        "server_host = " + slapd.url() + "\nsearch_base = " + base + "\nversion = 3\nbind = no\n";
    boolean zimbra = schema.equals(ZimbraLayout.NAME);
    Files.writeString(
        conf.resolve("aliases.cf"),
        common
            + (zimbra
                ? "query_filter = (&(objectClass=zimbraAccount)(zimbraMailAlias=%s))\n"
                    + "result_attribute = zimbraMailDeliveryAddress\n"
                : "query_filter = (mailLocalAddress=%s)\nresult_attribute = mail\n"));
    Files.writeString(
        conf.resolve("lists.cf"),
        common
            + (zimbra
                ? "query_filter = (&(objectClass=zimbraDistributionList)(zimbraMailAlias=%s))\n"
                    + "result_attribute = zimbraMailForwardingAddress\n"
                : "query_filter = (&(objectClass=nisMailAlias)(cn=%s))\n"
                    + "result_attribute = rfc822MailMember\n"));
    return conf;
  }

  private static String postmap(Path conf, String key, String table) throws Exception {
    return LocalDaemons.output(
            List.of(
                "/usr/sbin/postmap",
                "-c",
                conf.toString(),
                "-q",
                key,
                "ldap:" + conf.resolve(table)),
            null)
        .strip();
  }
}
