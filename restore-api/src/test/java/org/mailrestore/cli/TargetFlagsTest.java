package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.destination.TargetSpec;
import picocli.CommandLine;

/** The target flags of a local command: one target, several composed, or the mailstore to read. */
class TargetFlagsTest {

  private static TargetOptions parse(String... args) {
    CommandLine cli = MailrestoreCli.commandLine(args);
    CommandLine.ParseResult parsed = cli.parseArgs(args);
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    RestoreCommand.Run run = (RestoreCommand.Run) parsed.commandSpec().userObject();
    return run.store.target;
  }

  @Test
  void aVolumeAndAServerComposeInTheOrderOfTheKinds(@TempDir Path dir) {
    List<TargetSpec> targets =
        parse(
                "restore",
                "run",
                "--jdbc-url",
                "jdbc:mariadb://127.0.0.1/none",
                "--backup",
                dir.toString(),
                "--volume",
                dir.resolve("volume").toString(),
                "--target",
                "imap://127.0.0.1:1143")
            .writableTargets();
    assertThat(targets).extracting(TargetSpec::kind).containsExactlyInAnyOrder("imap", "mailstore");
  }

  @Test
  void withoutATargetARestoreSaysWhereItCouldWrite(@TempDir Path dir) {
    TargetOptions none =
        parse(
            "restore",
            "run",
            "--jdbc-url",
            "jdbc:mariadb://127.0.0.1/none",
            "--backup",
            dir.toString());
    assertThat(none.targets()).singleElement().satisfies(t -> assertThat(t.location()).isNull());
    assertThatThrownBy(none::writableTargets)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--volume")
        .hasMessageContaining("--target");
  }

  @Test
  void provisionNamesTheDirectoryByItsUrlAndTheImapKindsOptionOtherwise(@TempDir Path dir) {
    String[] common = {
      "restore", "run", "--jdbc-url", "jdbc:mariadb://127.0.0.1/none", "--backup", dir.toString()
    };
    List<TargetSpec> directory =
        parse(
                concat(
                    common,
                    "--target",
                    "imap://127.0.0.1:1143",
                    "--provision",
                    "ldap://127.0.0.1:1389",
                    "--ldap-base-dn",
                    "dc=example,dc=org",
                    "--ldap-schema",
                    "zimbra"))
            .writableTargets();
    assertThat(directory).extracting(TargetSpec::kind).containsExactlyInAnyOrder("imap", "ldap");
    TargetSpec ldap = directory.stream().filter(t -> t.kind().equals("ldap")).findFirst().get();
    assertThat(ldap.location()).isEqualTo("ldap://127.0.0.1:1389");
    assertThat(ldap.option("schema")).isEqualTo("zimbra");
    TargetSpec imap = directory.stream().filter(t -> t.kind().equals("imap")).findFirst().get();
    assertThat(imap.option("provision")).as("not the IMAP kind's value").isEqualTo("none");

    List<TargetSpec> sql =
        parse(
                concat(
                    common,
                    "--target",
                    "imap://127.0.0.1:1143",
                    "--provision",
                    "sql",
                    "--imap-sql-url",
                    "jdbc:mariadb://127.0.0.1/users"))
            .writableTargets();
    assertThat(sql)
        .singleElement()
        .satisfies(t -> {
          assertThat(t.kind()).isEqualTo("imap");
          assertThat(t.option("provision")).isEqualTo("sql");
        });

    assertThatThrownBy(() ->
            parse(concat(common, "--target", "imap://h", "--provision", "ldap://h"))
                .writableTargets())
        .hasMessageContaining("base-dn");
  }

  @Test
  void targetIsGivenOncePerKindAndEachKindTakesItsScheme(@TempDir Path dir) {
    String[] common = {
      "restore", "run", "--jdbc-url", "jdbc:mariadb://127.0.0.1/none", "--backup", dir.toString()
    };
    List<TargetSpec> both =
        parse(
                concat(
                    common,
                    "--target",
                    "imap://127.0.0.1:1143",
                    "--target",
                    "davs://dav.example.org/dav/",
                    "--dav-home",
                    "users/{local}/"))
            .writableTargets();
    assertThat(both).extracting(TargetSpec::kind).containsExactlyInAnyOrder("imap", "dav");
    TargetSpec dav = both.stream().filter(t -> t.kind().equals("dav")).findFirst().get();
    assertThat(dav.location()).isEqualTo("davs://dav.example.org/dav/");
    assertThat(dav.option("home")).isEqualTo("users/{local}/");

    assertThatThrownBy(() ->
            parse(concat(common, "--target", "imap://a", "--target", "imap://b")).writableTargets())
        .hasMessageContaining("one imap target at most");
    assertThatThrownBy(() -> parse(concat(common, "--target", "http://h/")).writableTargets())
        .hasMessageContaining("--target http://h/ names no target kind")
        .hasMessageContaining("CardDAV");
    assertThatThrownBy(() ->
            parse(concat(common, "--target", "dav://h/", "--dav-home", "static/"))
                .writableTargets())
        .hasMessageContaining("{address}");
    assertThatThrownBy(
            () -> parse(concat(common, "--target", "dav://user:pw@h/")).writableTargets())
        .hasMessageContaining("must not hold credentials");
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
