package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.SlapdServer;

/**
 * The CLI as an administrator types it: one {@code restore run} with {@code --provision ldap://...}
 * beside {@code --target imap://...} puts the accounts into a slapd and the mail into a Dovecot
 * that reads its users from that slapd; {@code verify} with the same flags finds no difference; a
 * second run adds no message and writes no entry.
 */
class DirectoryFromCliIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  void oneCommandProvisionsTheDirectoryAndRestoresTheMailIntoTheServerThatReadsIt()
      throws Exception {
    assumeTrue(SlapdServer.installed(), "slapd is not installed: .ci/run installs it");
    assumeTrue(
        DovecotServer.installed()
            && Files.exists(Path.of("/usr/lib/dovecot/modules/auth/libauthdb_ldap.so")),
        "dovecot-ldap is not installed: .ci/run installs it");
    SlapdServer slapd = SlapdServer.get();
    String base = slapd.newBase("cli");
    DovecotServer dovecot =
        DovecotServer.withLdapUsers(slapd, base, "(&(objectClass=inetOrgPerson)(mail=%u))", "mail");
    try {
      Path backup = dir.resolve("backup");
      BackupGenerator.generate(
          GeneratorSpec.defaults()
              .withSeed(UUID.randomUUID().getMostSignificantBits())
              .withAccounts(3)
              .withItemsPerAccount(40)
              .withShares(false),
          backup);
      List<String> flags = new ArrayList<>(List.of("--backup", backup.toString()));
      flags.addAll(
          List.of("--provision", slapd.url(), "--ldap-base-dn", base, "--ldap-starttls", "never"));
      flags.addAll(List.of("--target", dovecot.url(), "--imap-starttls", "never"));
      flags.addAll(Cli.database(own.database()));
      Map<String, String> env =
          Map.of(
              "MAILRESTORE_LDAP_BIND_DN", SlapdServer.ROOT_DN,
              "MAILRESTORE_LDAP_PASSWORD", SlapdServer.ROOT_PASSWORD,
              "MAILRESTORE_IMAP_USER", DovecotServer.MASTER,
              "MAILRESTORE_IMAP_PASSWORD", DovecotServer.MASTER_PASSWORD);

      String first = run(env, "restore run", flags);
      assertThat(first).contains("COMPLETED").contains(" 0 failed");
      assertThat(first).contains("was made locked"); // the generated backup holds no hashes
      String people = slapd.ldap("ldapsearch", null, "-LLL", "-b", base, "(mail=*)", "mail");
      assertThat(people.lines().filter(l -> l.startsWith("mail: ")).count())
          .as(people)
          .isEqualTo(3);
      assertThat(run(env, "verify", flags)).contains("no differences");

      String stamps = stamps(slapd, base);
      String second = run(env, "restore run", flags);
      assertThat(second).contains("COMPLETED").contains(" 0 restored");
      assertThat(stamps(slapd, base)).as("a second run writes no entry").isEqualTo(stamps);
    } finally {
      dovecot.stop();
    }
  }

  /** Every entry's modify timestamp and CSN under the base, as ldapsearch prints them. */
  private static String stamps(SlapdServer slapd, String base) throws Exception {
    return slapd.ldap(
        "ldapsearch", null, "-LLL", "-b", base, "(objectClass=*)", "modifyTimestamp", "entryCSN");
  }

  private String run(Map<String, String> env, String command, List<String> flags) throws Exception {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(flags);
    CliProcess process = CliProcess.start(own.database().server().password(), null, env, args);
    int exit = process.waitFor(300);
    System.out.println(process.output());
    assertThat(exit).as(process.output()).isZero();
    return process.output();
  }
}
