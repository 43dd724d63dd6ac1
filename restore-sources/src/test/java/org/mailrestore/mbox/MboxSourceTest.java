package org.mailrestore.mbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.files.Compression;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceProblem;

/** Trees of mbox files as mail clients leave them, and the state each message's headers carry. */
class MboxSourceTest {

  static final String ALICE = "alice@example.org";
  static final String SEP = MboxReaderTest.SEP;

  @TempDir Path dir;

  private MailSource open(Path location, String labels) throws IOException {
    return MboxSourceKind.of(location, ALICE, "auto", labels)
        .open(
            new SourceContext(
                S3Profiles.none(new SimpleMeterRegistry()),
                StorageLimits.DEFAULT,
                new SimpleMeterRegistry(),
                null));
  }

  /** Messages by subject, folders by id. */
  private record Read(
      Map<String, Revision> messages, Map<Integer, Revision> folders, Map<String, byte[]> bytes) {
    String folderOf(String subject) {
      int id = messages.get(subject).folderId();
      SystemFolder system = SystemFolder.byId(id);
      if (system != null) {
        return system.folderName();
      }
      List<String> path = new ArrayList<>();
      Integer f = id;
      while (f != null && folders.containsKey(f)) {
        Revision r = folders.get(f);
        path.add(0, r.name());
        f = r.folderId();
      }
      if (f != null && f != SystemFolder.USER_ROOT.id() && SystemFolder.byId(f) != null) {
        path.add(0, SystemFolder.byId(f).folderName());
      }
      return String.join("/", path);
    }
  }

  /**
   * Messages by subject in the order they passed, with their bytes, and the entries that failed.
   */
  private record Passed(Map<String, byte[]> bytes, List<ItemEntry.Undecodable> failed) {}

  private static Passed pass(MailSource source) throws IOException {
    Map<String, byte[]> bytes = new java.util.LinkedHashMap<>();
    List<ItemEntry.Undecodable> failed = new ArrayList<>();
    try (ItemStream stream = source.items(ALICE, EnumSet.of(ItemType.MESSAGE))) {
      while (stream.hasNext()) {
        switch (stream.next()) {
          case ItemEntry.Decoded d -> {
            try (InputStream in = d.passing().open()) {
              bytes.put(d.item().latest().orElseThrow().subject(), in.readAllBytes());
            }
          }
          case ItemEntry.Undecodable u -> failed.add(u);
        }
      }
    }
    return new Passed(bytes, failed);
  }

  private static Read read(MailSource source) throws IOException {
    Map<String, Revision> messages = new HashMap<>();
    Map<Integer, Revision> folders = new HashMap<>();
    Map<String, byte[]> bytes = new HashMap<>();
    try (ItemStream stream = source.items(ALICE, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        ItemEntry e = stream.next();
        assertThat(e).as(e.location()).isInstanceOf(ItemEntry.Decoded.class);
        ItemEntry.Decoded d = (ItemEntry.Decoded) e;
        Revision r = d.item().latest().orElseThrow();
        if (d.item().type() == ItemType.FOLDER) {
          folders.put(d.item().id(), r);
        } else {
          messages.put(r.subject(), r);
          try (InputStream in = d.passing().open()) {
            bytes.put(r.subject(), in.readAllBytes());
          }
        }
      }
    }
    return new Read(messages, folders, bytes);
  }

  private static byte[] message(String subject, String headers) {
    return ("Subject: " + subject + "\n" + headers + "\nbody of " + subject + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static void write(Path file, byte[]... messages) throws IOException {
    Files.createDirectories(file.getParent());
    byte[][] parts = new byte[messages.length][];
    for (int i = 0; i < messages.length; i++) {
      parts[i] = MboxWriter.mboxrd(messages[i], SEP);
    }
    Files.write(file, MboxWriter.concat(parts));
  }

  @Test
  void thunderbirdAppleMailAndPlainTreesMakeFolders() throws IOException {
    Path root = dir.resolve("Mail");
    write(root.resolve("Inbox"), message("in inbox", "X-Mozilla-Status: 0001\n"));
    write(root.resolve("Inbox.sbd/Lists"), message("in a sub-folder of the inbox", ""));
    write(root.resolve("Projects"), message("in projects", ""));
    write(root.resolve("Projects.sbd/Old.sbd/Older"), message("three deep", ""));
    write(root.resolve("Archive.mbox/mbox"), message("apple mail", ""));
    write(root.resolve("Archive.mbox/Nested.mbox/mbox"), message("apple nested", ""));
    write(root.resolve("lists/linux.mbox"), message("a mutt folder", ""));
    Files.write(root.resolve("Inbox.msf"), new byte[] {1, 2, 3}); // Thunderbird's index
    Files.writeString(root.resolve("Archive.mbox/Info.plist"), "<plist/>");
    Files.write(root.resolve("Archive.mbox/table_of_contents"), new byte[] {0, 0, 0, 3, 1});
    Files.writeString(root.resolve("notes"), "not mail at all\n");
    Files.createFile(root.resolve("Trash")); // an empty folder
    try (MailSource source = open(root, "tags")) {
      Read read = read(source);
      assertThat(read.folderOf("in inbox")).isEqualTo("Inbox");
      assertThat(read.folderOf("in a sub-folder of the inbox")).isEqualTo("Inbox/Lists");
      assertThat(read.folderOf("in projects")).isEqualTo("Projects");
      assertThat(read.folderOf("three deep")).isEqualTo("Projects/Old/Older");
      assertThat(read.folderOf("apple mail")).isEqualTo("Archive");
      assertThat(read.folderOf("apple nested")).isEqualTo("Archive/Nested");
      assertThat(read.folderOf("a mutt folder")).isEqualTo("lists/linux");
      assertThat(read.folders().values()).noneMatch(f -> f.name().equals("Trash"));
      assertThat(source.problems(ALICE))
          .singleElement()
          .satisfies(p -> {
            assertThat(p.location()).isEqualTo("notes");
            assertThat(p.detail()).contains("not an mbox");
            assertThat(p.notCarried()).isFalse();
          });
    }
  }

  @Test
  void aFileNamedInALegacyCharsetIsReadAndNamesItsFolder() throws Exception {
    Path root = dir.resolve("Mail");
    write(root.resolve("Inbox"), message("in inbox", ""));
    write(root.resolve("latin"), message("in drafts", ""));
    // "Entwürfe" in Latin-1, as an old client wrote it: Java cannot name a file so itself.
    Process rename =
        new ProcessBuilder("sh", "-c", "mv latin \"$(printf 'Entw\\374rfe')\"")
            .directory(root.toFile())
            .inheritIO()
            .start();
    assertThat(rename.waitFor()).isZero();
    try (MailSource source = open(root, "tags")) {
      Read read = read(source);
      assertThat(read.folderOf("in drafts")).isEqualTo("Entwürfe");
      assertThat(new String(read.bytes().get("in drafts"), StandardCharsets.UTF_8))
          .contains("body of in drafts");
      assertThat(source.problems(ALICE)).isEmpty();
    }
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (var gz = new java.util.zip.GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] mbox(byte[]... messages) {
    byte[][] parts = new byte[messages.length][];
    for (int i = 0; i < messages.length; i++) {
      parts[i] = MboxWriter.mboxrd(messages[i], SEP);
    }
    return MboxWriter.concat(parts);
  }

  @Test
  void compressedFilesAreReadAndNamedWithoutTheirExtension() throws IOException {
    Path root = dir.resolve("Mail");
    Files.createDirectories(root.resolve("lists"));
    Files.write(root.resolve("Inbox.gz"), gzip(mbox(message("gzipped", ""))));
    byte[] cl2 =
        MboxWriter.concat(
            MboxWriter.mboxcl2(message("zstd one", "Content-Type: text/plain\n"), SEP),
            MboxWriter.mboxcl2(message("zstd two\nFrom the start of a line", ""), SEP));
    Files.write(root.resolve("Archive.mbox.zst"), com.github.luben.zstd.Zstd.compress(cl2));
    // Two gzip members one after the other (as `cat a.gz b.gz` or a rotated log makes).
    Files.write(
        root.resolve("lists/linux.mbox.gz"),
        MboxWriter.concat(
            gzip(mbox(message("first member", ""))), gzip(mbox(message("second member", "")))));
    Files.write(root.resolve("index.html.gz"), gzip("<html/>".getBytes(StandardCharsets.UTF_8)));
    var bz2 = new java.io.ByteArrayOutputStream();
    try (var out =
        new org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream(bz2)) {
      out.write(mbox(message("bzipped", "")));
    }
    Files.write(root.resolve("Old.mbox.bz2"), bz2.toByteArray());
    var xz = new java.io.ByteArrayOutputStream();
    try (var out = new org.tukaani.xz.XZOutputStream(xz, new org.tukaani.xz.LZMA2Options())) {
      out.write(mbox(message("xzipped", "")));
    }
    Files.write(root.resolve("Older.xz"), xz.toByteArray());
    try (MailSource source = open(root, "tags")) {
      Read read = read(source);
      assertThat(read.folderOf("gzipped")).isEqualTo("Inbox");
      assertThat(read.folderOf("zstd one")).isEqualTo("Archive");
      assertThat(read.folderOf("first member")).isEqualTo("lists/linux");
      assertThat(read.folderOf("second member")).isEqualTo("lists/linux");
      assertThat(read.bytes().get("gzipped")).isEqualTo(message("gzipped", ""));
      assertThat(read.bytes().get("zstd one"))
          .as("the dialect (mboxcl2) is found in the decompressed stream")
          .isEqualTo(message("zstd one", "Content-Type: text/plain\n"));
      assertThat(read.folderOf("bzipped")).isEqualTo("Old");
      assertThat(read.folderOf("xzipped")).isEqualTo("Older");
      assertThat(read.bytes().get("xzipped")).isEqualTo(message("xzipped", ""));
      assertThat(read.messages()).hasSize(7);
      assertThat(source.problems(ALICE)).isEmpty();
    }
  }

  @Test
  void aCompressedFileCutShortGivesWhatCameBeforeTheCutAndSaysWhere() throws IOException {
    Path root = dir.resolve("Mail");
    Files.createDirectories(root);
    byte[][] messages = new byte[40][];
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < messages.length; i++) {
      byte[] noise = new byte[2000];
      random.nextBytes(noise);
      messages[i] =
          message("message " + i, "X-Noise: " + java.util.HexFormat.of().formatHex(noise) + "\n");
    }
    byte[] whole = gzip(mbox(messages));
    Files.write(root.resolve("Inbox.gz"), java.util.Arrays.copyOf(whole, whole.length / 2));
    Passed passed;
    try (MailSource source = open(root, "tags")) {
      passed = pass(source);
    }
    List<byte[]> restored = List.copyOf(passed.bytes().values());
    for (int i = 0; i < restored.size(); i++) {
      assertThat(restored.get(i)).isEqualTo(messages[i]);
    }
    assertThat(restored).hasSizeBetween(10, 30);
    assertThat(passed.failed())
        .singleElement()
        .satisfies(u -> {
          assertThat(u.location()).isEqualTo("Inbox.gz");
          assertThat(u.reason())
              .contains("cannot be read on")
              .contains("the messages after this point are not restored");
        });
  }

  @Test
  void textBeforeTheFirstSeparatorIsReportedAndTheMessagesAfterItAreRead() throws IOException {
    Path root = dir.resolve("Mail");
    Files.createDirectories(root);
    byte[] a = message("a", "");
    byte[] b = message("b", "");
    // An mboxcl2 file behind a banner: its dialect is probed from its first separator.
    byte[] banner =
        ("This folder was exported on 2024-01-01\r\n" + "-".repeat(70) + "\r\n")
            .repeat(60) // longer than the first 4 KiB a tree looks at
            .getBytes(StandardCharsets.UTF_8);
    Files.write(
        root.resolve("Exported"),
        MboxWriter.concat(banner, MboxWriter.mboxcl2(a, SEP), MboxWriter.mboxcl2(b, SEP)));
    Files.writeString(root.resolve("notes"), "Subject: no separator anywhere\n\nFrom here on\n");
    assertThat(
            MboxFiles.resolve(
                PathFence.NONE, Compression.NONE, root.resolve("Exported"), MboxDialect.AUTO))
        .isEqualTo(MboxDialect.MBOXCL2);
    Passed passed;
    try (MailSource source = open(root, "tags")) {
      passed = pass(source);
      assertThat(source.problems(ALICE))
          .singleElement()
          .satisfies(p -> assertThat(p.location()).isEqualTo("notes"));
    }
    assertThat(passed.bytes()).containsOnlyKeys("a", "b");
    assertThat(passed.bytes().get("a")).isEqualTo(a);
    assertThat(passed.bytes().get("b")).isEqualTo(b);
    assertThat(passed.failed())
        .singleElement()
        .satisfies(u -> {
          assertThat(u.location()).isEqualTo("Exported (bytes 0 to " + banner.length + ")");
          assertThat(u.reason())
              .startsWith(banner.length + " bytes of text before")
              .contains("the messages after it are restored");
        });
  }

  @Test
  void aClassicMacFileWithCrLineEndsGivesEachMessageWithLfLineEnds() throws IOException {
    Path root = dir.resolve("Mail");
    Files.createDirectories(root);
    StringBuilder mac = new StringBuilder();
    for (String subject : List.of("one", "two", "three")) {
      mac.append(SEP).append("\rSubject: ").append(subject).append("\r\rbody of ").append(subject);
      mac.append("\r\r");
    }
    Files.writeString(root.resolve("Eudora"), mac, StandardCharsets.ISO_8859_1);
    try (MailSource source = open(root, "tags")) {
      Read read = read(source);
      assertThat(read.messages()).containsOnlyKeys("one", "two", "three");
      assertThat(new String(read.bytes().get("two"), StandardCharsets.ISO_8859_1))
          .isEqualTo("Subject: two\n\nbody of two\n");
      assertThat(source.problems(ALICE)).isEmpty();
    }
  }

  @Test
  void aContentLengthThatLeadsPastTheEndOfALargeFileIsNotTrusted() throws IOException {
    Path file = dir.resolve("big");
    byte[] first =
        ("From a@b Mon Jan  1 00:00:00 2024\nContent-Length: 900000\nSubject: big\n\n"
                + "x".repeat(300_000)
                + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    Files.write(file, first);
    assertThat(MboxFiles.resolve(PathFence.NONE, Compression.NONE, file, MboxDialect.AUTO))
        .isEqualTo(MboxDialect.MBOXRD);
    Files.write(file, gzip(first));
    assertThat(MboxFiles.resolve(PathFence.NONE, Compression.GZIP, file, MboxDialect.AUTO))
        .isEqualTo(MboxDialect.MBOXRD);
    byte[] exact =
        ("From a@b Mon Jan  1 00:00:00 2024\nContent-Length: 300001\nSubject: big\n\n"
                + "x".repeat(300_000)
                + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    Files.write(file, exact);
    assertThat(MboxFiles.resolve(PathFence.NONE, Compression.NONE, file, MboxDialect.AUTO))
        .as("a header that leads exactly to the end of the file")
        .isEqualTo(MboxDialect.MBOXCL2);
  }

  @Test
  void statusHeadersGiveTheFlagsAndExpungedMessagesAreLeftOut() throws IOException {
    Path file = dir.resolve("Inbox");
    write(
        file,
        message("read and replied", "X-Mozilla-Status: 0003\n"),
        message("unread flagged", "X-Mozilla-Status: 0004\n"),
        message("forwarded", "X-Mozilla-Status: 1001\n"),
        message("expunged", "X-Mozilla-Status: 0009\n"),
        message("mutt new", "Status: O\n"),
        message("mutt read answered", "Status: RO\nX-Status: A\n"),
        message("no status at all", ""));
    try (MailSource source = open(file, "tags")) {
      Read read = read(source);
      assertThat(read.messages().get("read and replied").flags()).isEqualTo("r");
      assertThat(read.messages().get("unread flagged").flags()).isEqualTo("fu");
      assertThat(read.messages().get("forwarded").flags()).isEqualTo("w");
      assertThat(read.messages()).doesNotContainKey("expunged");
      assertThat(read.messages().get("mutt new").flags()).isEqualTo("u");
      assertThat(read.messages().get("mutt read answered").flags()).isEqualTo("r");
      assertThat(read.messages().get("no status at all").flags()).isEmpty();
      assertThat(read.bytes().get("forwarded"))
          .isEqualTo(message("forwarded", "X-Mozilla-Status: 1001\n"));
      assertThat(read.messages().get("read and replied").date()).isEqualTo(1_420_070_400_000L);
      assertThat(source.problems(ALICE))
          .singleElement()
          .satisfies(p -> {
            assertThat(p.notCarried()).isTrue();
            assertThat(p.detail()).contains("1 messages Thunderbird had deleted");
          });
    }
  }

  @Test
  void thePseudoMessageUwImapPutsFirstInAFolderIsNotRestored() throws IOException {
    Path file = dir.resolve("Inbox");
    String folderData =
        "Date: 08 Jul 2011 12:08:34 +0000\n"
            + "From: Mail System Internal Data <MAILER-DAEMON@host>\n"
            + "Subject: DON'T DELETE THIS MESSAGE -- FOLDER INTERNAL DATA\n"
            + "X-IMAP: 1310126820 0000000002\n"
            + "Status: RO\n\n"
            + "This text is part of the internal format of your mail folder, and is not\n"
            + "a real message.\n";
    byte[] quoted =
        ("Subject: DON'T DELETE THIS MESSAGE -- FOLDER INTERNAL DATA\nX-IMAP: 1 2\n\n"
                + "a user's copy, later in the file: mail\n")
            .getBytes(StandardCharsets.UTF_8);
    write(
        file, folderData.getBytes(StandardCharsets.UTF_8), message("real", "Status: RO\n"), quoted);
    try (MailSource source = open(file, "tags")) {
      Read read = read(source);
      assertThat(read.messages()).hasSize(2).containsKey("real");
      assertThat(read.bytes().get("DON'T DELETE THIS MESSAGE -- FOLDER INTERNAL DATA"))
          .isEqualTo(quoted);
      assertThat(source.problems(ALICE))
          .singleElement()
          .satisfies(p -> {
            assertThat(p.notCarried()).isTrue();
            assertThat(p.detail()).contains("1 pseudo messages of UW-IMAP");
          });
    }
  }

  @Test
  void keywordHeadersOfThunderbirdAndDovecotBecomeTagsAndFlags() throws IOException {
    Path file = dir.resolve("Inbox");
    String padded = "X-Mozilla-Keys: $label1 projekt_x NonJunk" + " ".repeat(40) + "\n";
    write(
        file,
        message("thunderbird", "X-Mozilla-Status: 0001\n" + padded),
        message("dovecot", "Status: RO\nX-Keywords: $Forwarded Work $MDNSent $Junk work\n"),
        message("empty", "X-Mozilla-Keys:" + " ".repeat(80) + "\n"),
        message(
            "gmail and keywords",
            "X-Gmail-Labels: Inbox,Important\nX-Mozilla-Keys: important Later/Soon\n"));
    try (MailSource source = open(file, "tags")) {
      Read read = read(source);
      assertThat(read.messages().get("thunderbird").tags())
          .as("Thunderbird's $label1 as it shows it; a junk filter's verdict is no tag")
          .containsExactly("Important", "projekt_x");
      assertThat(read.messages().get("thunderbird").flags()).isEmpty();
      assertThat(read.messages().get("dovecot").tags()).containsExactly("Work");
      assertThat(read.messages().get("dovecot").flags())
          .isEqualTo(org.mailrestore.mail.Flags.normalize("wn"));
      assertThat(read.messages().get("empty").tags()).isEmpty();
      assertThat(read.messages().get("gmail and keywords").tags())
          .as("each tag once, whatever its case")
          .containsExactly("Important", "Later-Soon");
    }
  }

  @Test
  void gmailLabelsPickFoldersAndBecomeTagsAsDocumented() throws IOException {
    Path file = dir.resolve("All mail Including Spam and Trash.mbox");
    write(
        file,
        message("inbox", "X-Gmail-Labels: Inbox,Important,Opened\n"),
        message("archived", "X-Gmail-Labels: Archived,Work/Projects,\"Clients, big\"\n"),
        message("sent", "X-Gmail-Labels: Sent,Inbox,Starred\n"),
        message("spam", "X-Gmail-Labels: Spam,Unread\n"),
        message("trash", "X-Gmail-Labels: Trash,Inbox\n"));
    try (MailSource source = open(file, "tags")) {
      Read read = read(source);
      assertThat(read.folderOf("inbox")).isEqualTo("Inbox");
      assertThat(read.messages().get("inbox").tags()).containsExactly("Important");
      assertThat(read.folderOf("archived")).isEqualTo("All mail Including Spam and Trash");
      assertThat(read.messages().get("archived").tags())
          .containsExactly("Work-Projects", "Clients, big");
      assertThat(read.folderOf("sent")).isEqualTo("Sent");
      assertThat(read.messages().get("sent").flags()).isEqualTo("f");
      assertThat(read.folderOf("spam")).isEqualTo("Junk");
      assertThat(read.messages().get("spam").flags()).isEqualTo("u");
      assertThat(read.folderOf("trash")).isEqualTo("Trash");
    }
    try (MailSource source = open(file, "folders")) {
      Read read = read(source);
      assertThat(read.folderOf("archived")).isEqualTo("Work/Projects");
      assertThat(read.messages().get("archived").tags()).containsExactly("Clients, big");
      assertThat(read.folderOf("inbox")).isEqualTo("Inbox");
    }
  }

  @Test
  void theSameTreeGivesTheSameReferenceAndAnotherTreeAnother() throws IOException {
    write(dir.resolve("a/Inbox"), message("x", ""));
    write(dir.resolve("b/Inbox"), message("x", ""));
    try (MailSource a = open(dir.resolve("a"), "tags");
        MailSource again = open(dir.resolve("a"), "tags");
        MailSource b = open(dir.resolve("b"), "tags")) {
      assertThat(a.accountRef(ALICE)).isEqualTo(again.accountRef(ALICE));
      assertThat(a.accountRef(ALICE)).isNotEqualTo(b.accountRef(ALICE));
    }
  }

  static List<SourceProblem> none() {
    return List.of();
  }
}
