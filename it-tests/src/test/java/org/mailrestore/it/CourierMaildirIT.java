package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Flags;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.TestDatabase;

/**
 * A Maildir whose keywords a real Courier-IMAP set: Debian's {@code imapd}, run pre-authenticated
 * on a pipe (as Courier's login runs it), keeps them in {@code courierimapkeywords/}, merged into
 * its {@code :list} by a later session, the latest changes still update files. Restored through the
 * CLI, exported, and, where Dovecot is installed, read by Dovecot: a Courier server's keywords
 * reach a Dovecot server's users.
 */
class CourierMaildirIT {

  /** Where Courier's imapd is: installed, or unpacked by {@code .ci/run} beside Dovecot's. */
  private static final List<Path> IMAPD =
      List.of(Path.of("/opt/mailrestore-courier/usr/bin/imapd"), Path.of("/usr/lib/courier/imapd"));

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  private static Path imapd() {
    return IMAPD.stream().filter(Files::isExecutable).findFirst().orElse(null);
  }

  @Test
  void courierKeywordsRestoreAsTagsAndFlagsAndExportAsDovecotKeywords() throws Exception {
    Path imapd = imapd();
    assumeTrue(
        imapd != null,
        "Courier-IMAP is not installed: .ci/run unpacks Debian's courier-imap into"
            + " /opt/mailrestore-courier");
    Path home = dir.resolve("dora");
    Path maildir = home.resolve("Maildir");
    for (String sub :
        List.of("cur", "new", "tmp", ".Archive/cur", ".Archive/new", ".Archive/tmp")) {
      Files.createDirectories(maildir.resolve(sub));
    }
    Files.writeString(maildir.resolve(".Archive/maildirfolder"), "");
    message(maildir.resolve("cur/1700000001.M1P1.host:2,S"), "one");
    message(maildir.resolve("cur/1700000002.M2P1.host:2,S"), "two");
    message(maildir.resolve("cur/1700000003.M3P1.host:2,S"), "three");
    message(maildir.resolve(".Archive/cur/1700000004.M4P1.host:2,S"), "archived");

    session(
        imapd,
        home,
        "SELECT INBOX",
        "STORE 1 +FLAGS (Work $Forwarded NonJunk)",
        "STORE 2 +FLAGS (Later)",
        "STORE 3 +FLAGS (Gone)",
        "SELECT INBOX.Archive",
        "STORE 1 +FLAGS (Old)");
    // The next session merges those into :list; what it changes stays an update file, the newest.
    session(
        imapd,
        home,
        "SELECT INBOX",
        "STORE 2 -FLAGS (Later)",
        "STORE 2 +FLAGS (Project)",
        "STORE 3 -FLAGS (Gone)");
    Path keywords = maildir.resolve("courierimapkeywords");
    assertThat(keywords.resolve(":list")).as("Courier merged its updates").exists();
    try (Stream<Path> files = Files.list(keywords)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("and left the last session's as update files")
          .anyMatch(name -> name.startsWith("1700000002."));
    }

    TestDatabase db = own.database();
    Cli.Result restored =
        MaildirChecks.restoreOneUser(maildir, "dora@example.org", db, dir.resolve("volume"));
    assertThat(MaildirChecks.messages(db.dataSource()))
        .as(restored.out())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "one", "Inbox | " + Flags.FORWARDED + " | Work",
                "two", "Inbox | 0 | Project",
                "three", "Inbox | 0 | ",
                "archived", "Archive | 0 | Old"));

    Path out = dir.resolve("export");
    MaildirChecks.exportOneUser("dora@example.org", db, out.resolve("dora"));
    assertThat(Files.readAllLines(out.resolve("dora/dovecot-keywords")))
        .as("Courier's keywords as Dovecot's, the junk filter's verdict kept")
        .anyMatch(line -> line.endsWith(" Work"))
        .anyMatch(line -> line.endsWith(" NonJunk"))
        .anyMatch(line -> line.endsWith(" $Forwarded"))
        .anyMatch(line -> line.endsWith(" Project"))
        .noneMatch(line -> line.endsWith(" Later") || line.endsWith(" Gone"));

    if (!DovecotServer.installed()) {
      return;
    }
    DovecotServer dovecot = DovecotServer.get();
    String user = "dora@courier-maildir.example";
    dovecot.addUser(user);
    dovecot.handOver(out);
    String at = "mail_location=maildir:" + out.resolve("dora");
    MaildirChecks.assertDovecotFindsOne(
        dovecot,
        at,
        user,
        List.of("INBOX", "KEYWORD", "Work"),
        List.of("INBOX", "KEYWORD", "$Forwarded"),
        List.of("INBOX", "KEYWORD", "NonJunk"),
        List.of("INBOX", "KEYWORD", "Project"),
        List.of("Archive", "KEYWORD", "Old"));
  }

  private static void message(Path file, String subject) throws IOException {
    Files.writeString(
        file,
        "From: Dora <dora@example.org>\nSubject: " + subject + "\n\nbody of " + subject + "\n");
  }

  /**
   * One IMAP session of Courier's imapd on the Maildir of {@code home}; every command must pass.
   */
  private static void session(Path imapd, Path home, String... commands) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(imapd.toString(), "Maildir").directory(home.toFile());
    pb.environment().clear();
    pb.environment()
        .putAll(Map.of("AUTHENTICATED", "dora", "IMAP_KEYWORDS", "1", "HOME", home.toString()));
    pb.redirectErrorStream(true);
    Process process = pb.start();
    StringBuilder script = new StringBuilder();
    for (int i = 0; i < commands.length; i++) {
      script.append('c').append(i).append(' ').append(commands[i]).append("\r\n");
    }
    script.append("z LOGOUT\r\n");
    try (OutputStream in = process.getOutputStream()) {
      in.write(script.toString().getBytes(StandardCharsets.US_ASCII));
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
    for (int i = 0; i < commands.length; i++) {
      assertThat(output).as(commands[i]).contains("\nc" + i + " OK");
    }
  }
}
