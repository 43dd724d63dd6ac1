package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Flags;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.TestDatabase;

/**
 * A Maildir as a real Dovecot writes it (its default: folder names in modified UTF-7, keywords as
 * file name letters with a table per folder, flags in names under {@code new/}) restored through
 * the CLI as one user's mailbox; then exported, and the export read by the same Dovecot.
 */
class DovecotMaildirIT {

  private static final String USER = "carl@dovecot-maildir.example";

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  private static byte[] message(String subject) {
    return ("From: Dora <dora@example.org>\nSubject: " + subject + "\n\nbody of " + subject + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The user's Maildir under {@code root}, named as the restore names the account. */
  private static String location(Path root) {
    return "mail_location=maildir:" + root.resolve("carl");
  }

  @Test
  void dovecotsMaildirRestoresWithItsNamesFlagsAndKeywordsAndExportsBackToDovecot()
      throws Exception {
    assumeTrue(DovecotServer.installed(), "Dovecot is not installed: .ci/run installs it");
    DovecotServer dovecot = DovecotServer.get();
    dovecot.addUser(USER);
    Path root = dir.resolve("maildir");
    dovecot.handOver(root);
    String at = location(root);
    dovecot.doveadm(
        null,
        "-o",
        at,
        "mailbox",
        "create",
        "-u",
        USER,
        "Entwürfe",
        "Отправленные/R&D-Team",
        "Tom & Jerry");
    dovecot.doveadm(message("draft"), "-o", at, "save", "-u", USER, "-m", "Entwürfe");
    dovecot.doveadm(message("nested"), "-o", at, "save", "-u", USER, "-m", "Отправленные/R&D-Team");
    dovecot.doveadm(message("ampersand"), "-o", at, "save", "-u", USER, "-m", "Tom & Jerry");
    dovecot.doveadm(message("inbox"), "-o", at, "save", "-u", USER);
    dovecot.doveadm(message("unread"), "-o", at, "save", "-u", USER);
    dovecot.doveadm(
        null,
        "-o",
        at,
        "flags",
        "add",
        "-u",
        USER,
        "\\Seen Work $Forwarded Lists/Linux",
        "mailbox",
        "Entwürfe",
        "ALL");
    dovecot.doveadm(
        null,
        "-o",
        at,
        "flags",
        "add",
        "-u",
        USER,
        "\\Seen \\Flagged $MDNSent Important",
        "mailbox",
        "INBOX",
        "SUBJECT",
        "inbox");
    dovecot.doveadm(
        null, "-o", at, "flags", "add", "-u", USER, "\\Seen", "mailbox", "Tom & Jerry", "ALL");

    TestDatabase db = own.database();
    Path volume = dir.resolve("volume");
    Cli.Result restored =
        MaildirChecks.restoreOneUser(root.resolve("carl"), "carl@example.org", db, volume);

    assertThat(MaildirChecks.messages(db.dataSource()))
        .as(restored.out())
        .containsEntry("draft", "Entwürfe | " + Flags.FORWARDED + " | Lists-Linux,Work")
        .containsEntry("nested", "R&D-Team | " + Flags.UNREAD + " | ")
        .containsEntry("ampersand", "Tom & Jerry | 0 | ")
        .containsEntry("inbox", "Inbox | " + (Flags.FLAGGED | Flags.NOTIFIED) + " | Important")
        .containsEntry("unread", "Inbox | " + Flags.UNREAD + " | ")
        .hasSize(5);
    try (Connection c = db.dataSource().getConnection();
        var s =
            c.prepareStatement(
                "SELECT COUNT(*) FROM mail_item p JOIN mail_item f ON f.mailbox_id = p.mailbox_id"
                    + " AND f.folder_id = p.id WHERE p.name = ? AND f.name = ?")) {
      s.setString(1, "Отправленные");
      s.setString(2, "R&D-Team");
      try (var rs = s.executeQuery()) {
        rs.next();
        assertThat(rs.getInt(1)).as("R&D-Team is under Отправленные").isOne();
      }
    }

    Path out = dir.resolve("export");
    MaildirChecks.exportOneUser("carl@example.org", db, out.resolve("carl"));
    dovecot.handOver(out);
    String back = location(out);
    String listed = dovecot.doveadm(null, "-o", back, "mailbox", "list", "-u", USER);
    assertThat(listed.lines().toList())
        .contains("INBOX", "Entwürfe", "Отправленные", "Отправленные/R&D-Team", "Tom & Jerry");
    String seen =
        dovecot.doveadm(null, "-o", back, "search", "-u", USER, "mailbox", "Tom & Jerry", "SEEN");
    assertThat(seen.lines().count()).as("Dovecot sees the exported message as read").isOne();
    MaildirChecks.assertDovecotFindsOne(
        dovecot,
        back,
        USER,
        List.of("Entwürfe", "KEYWORD", "Lists/Linux"),
        List.of("Entwürfe", "KEYWORD", "Work"),
        List.of("Entwürfe", "KEYWORD", "$Forwarded"),
        List.of("INBOX", "KEYWORD", "Important"),
        List.of("INBOX", "KEYWORD", "$MDNSent"));
  }

  /**
   * Dovecot's other Maildir layout: each folder a directory of its own name ({@code LAYOUT=fs}).
   */
  @Test
  void dovecotsFsLayoutRestoresAndExportsBackToDovecot() throws Exception {
    assumeTrue(DovecotServer.installed(), "Dovecot is not installed: .ci/run installs it");
    DovecotServer dovecot = DovecotServer.get();
    String user = "dana@dovecot-maildir.example";
    dovecot.addUser(user);
    Path root = dir.resolve("maildir");
    dovecot.handOver(root);
    String at = "mail_location=maildir:" + root.resolve("dana") + ":LAYOUT=fs";
    dovecot.doveadm(null, "-o", at, "mailbox", "create", "-u", user, "Archiv/2023", "Entwürfe");
    dovecot.doveadm(message("fs deep"), "-o", at, "save", "-u", user, "-m", "Archiv/2023");
    dovecot.doveadm(message("fs draft"), "-o", at, "save", "-u", user, "-m", "Entwürfe");
    dovecot.doveadm(message("fs inbox"), "-o", at, "save", "-u", user);
    dovecot.doveadm(
        null, "-o", at, "flags", "add", "-u", user, "\\Seen", "mailbox", "Entwürfe", "ALL");

    TestDatabase db = own.database();
    Cli.Result restored =
        MaildirChecks.restoreOneUser(
            root.resolve("dana"), "dana@example.org", db, dir.resolve("volume"));
    assertThat(MaildirChecks.messages(db.dataSource()))
        .as(restored.out())
        .containsEntry("fs deep", "2023 | " + Flags.UNREAD + " | ")
        .containsEntry("fs draft", "Entwürfe | 0 | ")
        .containsEntry("fs inbox", "Inbox | " + Flags.UNREAD + " | ")
        .hasSize(3);

    Path out = dir.resolve("export");
    MaildirChecks.exportOneUser("dana@example.org", db, out.resolve("dana"));
    dovecot.handOver(out);
    String back = "mail_location=maildir:" + out.resolve("dana") + ":LAYOUT=fs";
    assertThat(dovecot.doveadm(null, "-o", back, "mailbox", "list", "-u", user).lines().toList())
        .contains("INBOX", "Archiv", "Archiv/2023", "Entwürfe");
    assertThat(
            dovecot
                .doveadm(null, "-o", back, "search", "-u", user, "mailbox", "Archiv/2023", "ALL")
                .lines()
                .count())
        .isOne();
  }

  /**
   * Dovecot's zlib plugin compresses each message it saves ({@code zlib_save}): the files hold
   * gzip, zstd, bzip2 and Dovecot's own LZ4 format, and restore as the messages Dovecot was given.
   * (Its 2.3.14 and later no longer write xz; they read it, as we do.)
   */
  @Test
  void dovecotsCompressedMessagesRestoreAsTheMessagesTheyHold() throws Exception {
    assumeTrue(DovecotServer.installed(), "Dovecot is not installed: .ci/run installs it");
    DovecotServer dovecot = DovecotServer.get();
    String user = "erin@dovecot-maildir.example";
    dovecot.addUser(user);
    Path root = dir.resolve("maildir");
    dovecot.handOver(root);
    String at = "mail_location=maildir:" + root.resolve("erin");
    List<String> methods = List.of("gz", "zstd", "bz2", "lz4");
    for (String method : methods) {
      dovecot.doveadm(
          message("saved as " + method),
          "-o",
          at,
          "-o",
          "mail_plugins=zlib",
          "-o",
          "plugin/zlib_save=" + method,
          "save",
          "-u",
          user);
    }
    List<String> magic = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root.resolve("erin"))) {
      for (Path file :
          files.filter(f -> f.getParent().getFileName().toString().matches("cur|new")).toList()) {
        byte[] head = Files.readAllBytes(file);
        magic.add(HexFormat.of().formatHex(head, 0, 4));
      }
    }
    assertThat(magic)
        .as("Dovecot wrote one message as gzip, one as zstd, one as bzip2, one as its LZ4")
        .anySatisfy(m -> assertThat(m).startsWith("1f8b"))
        .anySatisfy(m -> assertThat(m).isEqualTo("28b52ffd"))
        .anySatisfy(m -> assertThat(m).startsWith(hex("BZh")))
        .anySatisfy(m -> assertThat(m).isEqualTo(hex("Dove")))
        .hasSize(4);

    TestDatabase db = own.database();
    Cli.Result restored =
        MaildirChecks.restoreOneUser(
            root.resolve("erin"), "erin@example.org", db, dir.resolve("volume"));
    assertThat(MaildirChecks.messages(db.dataSource()))
        .as(restored.out())
        .containsEntry("saved as gz", "Inbox | " + Flags.UNREAD + " | ")
        .containsEntry("saved as zstd", "Inbox | " + Flags.UNREAD + " | ")
        .containsEntry("saved as bz2", "Inbox | " + Flags.UNREAD + " | ")
        .containsEntry("saved as lz4", "Inbox | " + Flags.UNREAD + " | ")
        .hasSize(4);
    try (Connection c = db.dataSource().getConnection();
        var s = c.prepareStatement("SELECT size FROM mail_item WHERE type = 5 AND subject = ?")) {
      for (String method : methods) {
        s.setString(1, "saved as " + method);
        try (var rs = s.executeQuery()) {
          rs.next();
          assertThat(rs.getLong(1))
              .as("the message's size, not the file's")
              .isEqualTo(message("saved as " + method).length);
        }
      }
    }
  }

  private static String hex(String ascii) {
    return HexFormat.of().formatHex(ascii.getBytes(StandardCharsets.US_ASCII));
  }
}
