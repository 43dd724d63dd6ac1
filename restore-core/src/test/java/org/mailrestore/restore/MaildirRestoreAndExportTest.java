package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.restore.StoreContents.Held;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.Verifier;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * A Maildir++ user and a plain (Enron-like) user restored through the Maildir reader: folders,
 * flags, headers, the system folders; then exported back to trees that hold the same files, byte
 * for byte, under the same names.
 */
class MaildirRestoreAndExportTest {

  @TempDir Path dir;

  private static void write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, content.getBytes(StandardCharsets.ISO_8859_1));
  }

  private Path tree() throws IOException {
    Path root = dir.resolve("mail");
    Path anna = root.resolve("anna");
    write(
        anna.resolve("cur/1000.M1P1.host:2,S"),
        "From: Bob <bob@example.org>\r\nSubject: =?UTF-8?B?SMOpbGxv?= world\r\n"
            + "Date: Mon, 14 May 2001 16:39:00 -0700 (PDT)\r\n\r\nbody\n");
    write(anna.resolve("cur/1001.M2P1.host:2,FR"), "Subject: flagged\n\nbody with\u0000NUL\n");
    write(anna.resolve("new/1002.M3P1.host"), "Subject: caf\u00e9 in latin-1\n\nnew mail\n");
    write(anna.resolve("tmp/1003.M4P1.host"), "half delivered");
    write(anna.resolve("dovecot-uidlist"), "3 V1 N4\n");
    write(anna.resolve(".Sent/cur/2000.M5P1.host:2,S"), "Subject: sent\n\nsent\n");
    write(anna.resolve(".Work.Projects/cur/3000.M6P1.host:2,RS"), "Subject: deep\n\nproject\n");
    Files.createDirectories(anna.resolve(".Empty/cur"));
    Path ben = root.resolve("ben");
    write(ben.resolve("inbox/1."), "Subject: one\n\n1\n");
    write(ben.resolve("inbox/sub/2."), "Subject: two\n\n2\n");
    write(ben.resolve("projects/3."), "no headers at all, just text\n");
    write(ben.resolve("LICENSE"), "a file at the top of the tree\n");
    Files.createDirectories(ben.resolve("empty_dir"));
    Files.createSymbolicLink(ben.resolve("inbox/link."), ben.resolve("projects/3."));
    // A named pipe where a message should be: opened, it would block the restore for ever.
    Process fifo =
        new ProcessBuilder("mkfifo", anna.resolve("cur/1004.M7P1.host:2,S").toString())
            .inheritIO()
            .start();
    try {
      if (fifo.waitFor() != 0) {
        throw new IOException("mkfifo failed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    Files.createDirectories(root.resolve("Bad Name"));
    // No address takes it either; and the engine keeps account ids in ASCII: recording it as it is
    // failed the whole operation ("Illegal mix of collations")
    Files.createDirectories(root.resolve("Jos\u00e9/cur"));
    write(root.resolve("SHA256SUMS"), "not a user\n");
    return root;
  }

  /** Every file under a directory, relative path to SHA-256, minus what a Maildir does not keep. */
  static Map<String, String> files(Path root, boolean maildir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        String rel = root.relativize(p).toString();
        boolean mail = !maildir || rel.matches("(.*/)?(cur|new)/[^/]+");
        if (mail) {
          files.put(rel, BlobDigest.ofContent(Files.readAllBytes(p)).hex());
        }
      }
    }
    return files;
  }

  static TreeSet<String> directories(Path root, boolean maildir) throws IOException {
    TreeSet<String> dirs = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isDirectory).toList()) {
        String rel = root.relativize(p).toString();
        if (!maildir || !rel.matches("(.*/)?(cur|new|tmp)")) {
          dirs.add(rel);
        }
      }
    }
    return dirs;
  }

  @Test
  void aMaildirTreeRestoresAndExportsBackByteForByte() throws Exception {
    Path root = tree();
    SourceSpec source = MaildirSourceKind.of(root, "Example.org", "auto");
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary =
          f.restore(new RestoreRequest(source, null, null, null, null, null, null, 0, 0, null));
      // The symbolic link and the named pipe are reported, not read, and each directory that
      // cannot be a user is an account that failed; everything else is restored.
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(f.engine.bookkeeping().failures().list(summary.id(), 0, 10))
          .extracting(failure -> failure.reason() + " " + failure.location())
          .containsExactlyInAnyOrder(
              "SOURCE_UNREADABLE inbox/link.",
              "SOURCE_UNREADABLE cur/1004.M7P1.host:2,S",
              "ACCOUNT_UNREADABLE Bad Name/",
              "ACCOUNT_UNREADABLE Jos\u00e9/");
      assertThat(summary.counts().accounts()).as("anna, ben and the two that failed").isEqualTo(4);
      assertThat(summary.counts().accountsFailed()).isEqualTo(2);
      // anna: 5 messages, folders Work, Projects, Empty; ben: 4 messages, folders sub, projects,
      // empty_dir
      assertThat(summary.counts().itemsRestored()).isEqualTo(5 + 3 + 4 + 3);

      String anna = "anna@example.org";
      Held hello = StoreContents.message(f, anna, "Héllo world");
      assertThat(hello.flags()).as("a seen message").isZero();
      assertThat(hello.state().folderId()).as("in the inbox").isEqualTo(SystemFolder.INBOX.id());
      assertThat(hello.state().sender()).isEqualTo("Bob <bob@example.org>");
      assertThat(hello.state().date()).as("its date parsed").isEqualTo(989883540000L);
      assertThat(StoreContents.message(f, anna, "flagged").flags())
          .isEqualTo(Flags.UNREAD | Flags.FLAGGED | Flags.REPLIED);
      assertThat(StoreContents.message(f, anna, "café in latin-1").flags())
          .as("a message in new/ is unread; 8-bit headers read as Latin-1")
          .isEqualTo(Flags.UNREAD);
      assertThat(StoreContents.message(f, anna, "sent").state().folderId())
          .as(".Sent is the Sent folder")
          .isEqualTo(SystemFolder.SENT.id());
      assertThat(StoreContents.message(f, anna, "deep").folder()).isEqualTo("Work/Projects");
      assertThat(StoreContents.folders(f))
          .as("the folder only named by .Work.Projects exists")
          .containsOnlyOnce("Work/Projects");
      assertThat(StoreContents.held(f))
          .filteredOn(h ->
              h.account().equals("ben@example.org")
                  && h.type() == ItemType.MESSAGE
                  && h.state().folderId() == SystemFolder.INBOX.id())
          .as("ben's inbox/ and top-level files are in the Inbox")
          .hasSize(2);
      assertThat(f.verify(source, Verifier.Options.defaults()).differences()).isEmpty();

      ExportFormat maildir = ExportFormat.installed().require("maildir");
      ExportReport annaOut =
          f.runtime.export(maildir, null, List.of("anna@example.org"), dir.resolve("out/anna"));
      ExportReport benOut =
          f.runtime.export(maildir, null, List.of("ben@example.org"), dir.resolve("out/ben"));
      assertThat(annaOut.problems()).isEmpty();
      assertThat(benOut.problems()).isEmpty();
      assertThat(annaOut.items()).isEqualTo(5);
      assertThat(benOut.items()).isEqualTo(4);
      assertThat(files(dir.resolve("out/anna"), true)).isEqualTo(files(root.resolve("anna"), true));
      assertThat(
              Files.getLastModifiedTime(dir.resolve("out/anna/cur/1000.M1P1.host:2,S")).toMillis())
          .as("an exported message file keeps the message's date as its modification time")
          .isEqualTo(989883540000L);
      assertThat(directories(dir.resolve("out/anna"), true))
          .isEqualTo(directories(root.resolve("anna"), true));
      Map<String, String> benFiles = files(root.resolve("ben"), false);
      benFiles.remove("inbox/link.");
      assertThat(files(dir.resolve("out/ben"), false)).isEqualTo(benFiles);
      assertThat(directories(dir.resolve("out/ben"), false))
          .isEqualTo(directories(root.resolve("ben"), false));

      OperationSummary again =
          f.restore(new RestoreRequest(source, null, null, null, null, null, null, 0, 0, null));
      assertThat(again.counts().itemsRestored()).isZero();
      assertThat(again.counts().itemsSkipped()).isEqualTo(summary.counts().itemsRestored());
      assertThat(List.of(again.state())).containsAnyOf(OperationState.PARTIAL);
    }
  }

  /**
   * A user's Maildir as Dovecot and Courier write it without Dovecot's UTF8 option: folder names in
   * modified UTF-7, keywords as file name letters looked up in each folder's {@code
   * dovecot-keywords}.
   */
  @Test
  void dovecotFolderNamesAndKeywordsAreRead() throws Exception {
    Path root = dir.resolve("dovecot");
    Path carl = root.resolve("carl");
    write(carl.resolve("dovecot-keywords"), "0 $Junk\n1 $MDNSent\n2 Important\n");
    write(carl.resolve("cur/1000.M1P1.host:2,Sabc"), "Subject: inbox\n\nbody\n");
    write(carl.resolve("cur/1001.M2P1.host:2,Sz"), "Subject: unknown letter\n\nbody\n");
    Path drafts = carl.resolve(".Entw&APw-rfe");
    write(drafts.resolve("dovecot-keywords"), "0 Work\n1 $Forwarded\nnot a line\n3 Lists/Linux\n");
    write(drafts.resolve("cur/2000.M3P1.host:2,Sabd"), "Subject: draft\n\nbody\n");
    write(
        carl.resolve(".&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-.R&D-Team/cur/3000.M4P1.host:2,S"),
        "Subject: nested\n\nbody\n");
    write(carl.resolve(".Tom &- Jerry/cur/4000.M5P1.host:2,S"), "Subject: ampersand\n\nbody\n");
    // Dovecot's LAYOUT=fs: a folder is a directory of its own name holding a Maildir.
    Path dana = root.resolve("dana");
    write(dana.resolve("cur/5000.M1P1.host:2,S"), "Subject: fs inbox\n\nbody\n");
    write(dana.resolve("Sent/cur/5001.M2P1.host:2,S"), "Subject: fs sent\n\nbody\n");
    write(dana.resolve("Archiv/2023/cur/5002.M3P1.host:2,S"), "Subject: fs deep\n\nbody\n");
    write(dana.resolve("Entw&APw-rfe/new/5003.M4P1.host"), "Subject: fs draft\n\nbody\n");
    write(dana.resolve("courierimapkeywords/:list"), "not a folder\n");
    SourceSpec source = MaildirSourceKind.of(root, "example.org", "auto");
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary =
          f.restore(new RestoreRequest(source, null, null, null, null, null, null, 0, 0, null));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.message(f, "draft").folder()).endsWith("Entwürfe");
      assertThat(StoreContents.message(f, "nested").folder())
          .as("a name that is not modified UTF-7 stays as it is")
          .isEqualTo("Отправленные/R&D-Team");
      assertThat(StoreContents.message(f, "ampersand").folder()).isEqualTo("Tom & Jerry");
      assertThat(StoreContents.message(f, "fs inbox").state().folderId())
          .isEqualTo(SystemFolder.INBOX.id());
      assertThat(StoreContents.message(f, "fs sent").state().folderId())
          .as("Sent/ is the Sent folder")
          .isEqualTo(SystemFolder.SENT.id());
      assertThat(StoreContents.message(f, "fs draft").folder()).endsWith("Entwürfe");
      assertThat(StoreContents.message(f, "fs deep").folder())
          .as("a directory holding only a deeper Maildir is a folder too")
          .isEqualTo("Archiv/2023");
      assertThat(StoreContents.folders(f)).noneMatch(p -> p.endsWith("courierimapkeywords"));

      assertThat(StoreContents.message(f, "inbox").flags())
          .as("$MDNSent is the notified flag")
          .isEqualTo(Flags.NOTIFIED);
      assertThat(StoreContents.message(f, "draft").flags())
          .as("$Forwarded is the forwarded flag")
          .isEqualTo(Flags.FORWARDED);
      assertThat(StoreContents.message(f, "inbox").tags())
          .as("a junk filter's verdict ($Junk) is no tag")
          .isEqualTo("Important");
      assertThat(StoreContents.message(f, "draft").tags())
          .as("each folder has its own table; a '/' cannot be in a tag's name")
          .isEqualTo("Lists-Linux,Work");
      assertThat(StoreContents.message(f, "unknown letter").tags()).isNull();
      assertThat(f.verify(source, Verifier.Options.defaults()).differences()).isEmpty();

      ExportFormat maildir = ExportFormat.installed().require("maildir");
      ExportReport out =
          f.runtime.export(maildir, null, List.of("carl@example.org"), dir.resolve("out/carl"));
      assertThat(out.problems()).isEmpty();
      assertThat(files(dir.resolve("out/carl"), true))
          .as("the same names, keyword letters included")
          .isEqualTo(files(carl, true));
      assertThat(Files.readString(dir.resolve("out/carl/dovecot-keywords")))
          .as("the keywords the messages carry, under the letters they had")
          .isEqualTo("0 $Junk\n1 $MDNSent\n2 Important\n");
      assertThat(Files.readString(dir.resolve("out/carl/.Entw&APw-rfe/dovecot-keywords")))
          .isEqualTo("0 Work\n1 $Forwarded\n3 Lists/Linux\n");
      assertThat(directories(dir.resolve("out/carl"), true)).isEqualTo(directories(carl, true));
      ExportReport fs =
          f.runtime.export(maildir, null, List.of("dana@example.org"), dir.resolve("out/dana"));
      assertThat(fs.problems()).isEmpty();
      assertThat(files(dir.resolve("out/dana"), true)).isEqualTo(files(dana, true));
      TreeSet<String> danaDirs = directories(dana, true);
      danaDirs.remove("courierimapkeywords");
      assertThat(directories(dir.resolve("out/dana"), true)).isEqualTo(danaDirs);
    }
  }

  /**
   * A root of domain directories ({@code /var/vmail/<domain>/<user>}) restores every user in its
   * domain; a directory that cannot be an account is recorded as a failed account, with the reason.
   */
  @Test
  void aTreeOfDomainsRestoresEachUserInItsDomainAndReportsTheRest() throws Exception {
    Path vmail = dir.resolve("vmail");
    write(vmail.resolve("example.org/alice/Maildir/cur/1.M1.host:2,S"), "Subject: a\n\nbody\n");
    write(vmail.resolve("example.net/bob/cur/2.M2.host:2,S"), "Subject: b\n\nbody\n");
    write(vmail.resolve("example.net/Bob Two/cur/3.M3.host:2,S"), "Subject: c\n\nbody\n");
    Files.createDirectories(vmail.resolve("lost+found"));
    SourceSpec source = MaildirSourceKind.ofDomains(vmail, "auto");
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary =
          f.restore(new RestoreRequest(source, null, null, null, null, null, null, 0, 0, null));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(f.store().account("alice@example.org").orElseThrow().account().domain())
          .isEqualTo("example.org");
      assertThat(f.store().account("bob@example.net").orElseThrow().account().domain())
          .isEqualTo("example.net");
      assertThat(StoreContents.accounts(f)).containsExactly("alice@example.org", "bob@example.net");
      assertThat(StoreContents.messages(f)).isEqualTo(2);
      assertThat(f.engine.bookkeeping().failures().list(summary.id(), 0, 10))
          .singleElement()
          .satisfies(failure -> {
            assertThat(failure.location()).isEqualTo("example.net/Bob Two/");
            assertThat(failure.detail()).contains("local part");
          });
    }
  }

  /**
   * Courier-IMAP keeps keywords in {@code courierimapkeywords/}: a {@code :list} of names and
   * message lines, and update files not yet merged into it, the newest of which wins. They become
   * tags and flags as Dovecot's do, and an export writes them as Dovecot keywords.
   */
  @Test
  void courierKeywordsAreRead() throws Exception {
    Path gina = dir.resolve("courier/gina");
    Path kw = gina.resolve("courierimapkeywords");
    write(
        kw.resolve(":list"),
        "Important\n$Forwarded\nNonJunk\nWork\n\n"
            + "1000.M1P1.host:0 1 2\n1001.M2P1.host:3\n1002.M3P1.host:0\nnot a line\n");
    write(kw.resolve(".3.1001.M2P1.host"), "Older\n");
    write(kw.resolve(".5.1001.M2P1.host"), "Later\n");
    write(kw.resolve("1002.M3P1.host"), "");
    write(kw.resolve(".tmp.1700000000.host"), "Scratch\n");
    write(gina.resolve("cur/1000.M1P1.host:2,S"), "Subject: listed\n\nbody\n");
    write(gina.resolve("cur/1001.M2P1.host:2,S"), "Subject: updated\n\nbody\n");
    write(gina.resolve("cur/1002.M3P1.host:2,S"), "Subject: cleared\n\nbody\n");
    write(gina.resolve("new/.noindex"), ""); // mu's marker: no message in a Maildir
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      many.append("K").append(i).append('\n');
    }
    write(
        gina.resolve(".Archive/courierimapkeywords/:list"), many + "\n" + "2000.M4P1.host:0 28\n");
    write(gina.resolve(".Archive/cur/2000.M4P1.host:2,S"), "Subject: many\n\nbody\n");
    // A Dovecot that took the tree over keeps its own table, and the letters in the names.
    write(gina.resolve(".Both/courierimapkeywords/:list"), "Stale\n\n3000.M5P1.host:0\n");
    write(gina.resolve(".Both/dovecot-keywords"), "0 Current\n");
    write(gina.resolve(".Both/cur/3000.M5P1.host:2,Sa"), "Subject: both\n\nbody\n");
    SourceSpec source = MaildirSourceKind.of(dir.resolve("courier"), "example.org", "auto");
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary =
          f.restore(new RestoreRequest(source, null, null, null, null, null, null, 0, 0, null));
      assertThat(summary.counts().itemsRestored()).as("5 messages, 2 folders").isEqualTo(7);
      assertThat(f.engine.bookkeeping().failures().list(summary.id(), 0, 10))
          .singleElement()
          .satisfies(failure -> {
            assertThat(failure.location()).isEqualTo("courierimapkeywords");
            assertThat(failure.detail()).contains(":list").contains("1 line(s)");
          });
      assertThat(StoreContents.message(f, "listed").tags())
          .as("NonJunk is no tag")
          .isEqualTo("Important");
      assertThat(StoreContents.message(f, "listed").flags()).isEqualTo(Flags.FORWARDED);
      assertThat(StoreContents.message(f, "updated").tags())
          .as("the newest update wins")
          .isEqualTo("Later");
      assertThat(StoreContents.message(f, "cleared").tags()).as("an empty update clears").isNull();
      assertThat(StoreContents.message(f, "many").tags())
          .as("keywords past the 26th are tags too")
          .isEqualTo("K0,K28");
      assertThat(StoreContents.message(f, "both").tags()).isEqualTo("Current");

      ExportReport out =
          f.runtime.export(
              ExportFormat.installed().require("maildir"),
              null,
              List.of("gina@example.org"),
              dir.resolve("out/gina"));
      assertThat(out.problems()).isEmpty();
      assertThat(Files.readString(dir.resolve("out/gina/dovecot-keywords")))
          .as("Courier's keywords as Dovecot's, under the letters of their indexes")
          .isEqualTo("0 Important\n1 $Forwarded\n2 NonJunk\n4 Later\n");
      assertThat(files(dir.resolve("out/gina"), true))
          .as("a kept name keeps its flags; a keyword past the 26th takes a free letter")
          .containsOnlyKeys(
              "cur/1000.M1P1.host:2,Sabc",
              "cur/1001.M2P1.host:2,Se",
              "cur/1002.M3P1.host:2,S",
              ".Archive/cur/2000.M4P1.host:2,Sab",
              ".Both/cur/3000.M5P1.host:2,Sa");
    }
  }

  /**
   * Dovecot's zlib plugin compresses messages in place (gzip, zstd, xz...; a {@code Z} in the name
   * by convention): the message inside is restored, and one that does not decompress is reported,
   * never restored as its compressed bytes. Only a Maildir is read so: a plain tree's files are
   * messages as they are.
   */
  @Test
  void compressedMessagesAreRestoredDecompressed() throws Exception {
    Path eve = dir.resolve("compressed/eve");
    byte[] small = "Subject: gzipped\r\n\r\nsmall body\r\n".getBytes(StandardCharsets.US_ASCII);
    StringBuilder big = new StringBuilder("Subject: zstd and large\r\n\r\n");
    Random random = new Random(42);
    while (big.length() < 400_000) {
      byte[] line = new byte[57];
      random.nextBytes(line);
      big.append(Base64.getEncoder().encodeToString(line)).append("\r\n");
    }
    byte[] large = big.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] gzipped;
    var bytes = new ByteArrayOutputStream();
    try (var gzip = new GZIPOutputStream(bytes)) {
      gzip.write(small);
    }
    gzipped = bytes.toByteArray();
    byte[] zstd = Zstd.compress(large);
    assertThat(zstd.length)
        .as("large enough not to be kept whole while it is read")
        .isGreaterThan(256 * 1024);
    String smallName = "cur/6000.M1P1.host,S=" + small.length + ":2,SZ";
    String largeName = "cur/6001.M2P1.host,S=" + large.length + ":2,SZ";
    Files.createDirectories(eve.resolve("cur"));
    Files.write(eve.resolve(smallName), gzipped);
    Files.write(eve.resolve(largeName), zstd);
    byte[] xzMessage = "Subject: xz\r\n\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);
    bytes = new ByteArrayOutputStream();
    try (var xz = new XZOutputStream(bytes, new LZMA2Options())) {
      xz.write(xzMessage);
    }
    String xzName = "cur/6003.M4P1.host,S=" + xzMessage.length + ":2,SZ";
    Files.write(eve.resolve(xzName), bytes.toByteArray());
    Files.write(
        eve.resolve("cur/6002.M3P1.host:2,SZ"), Arrays.copyOf(gzipped, gzipped.length - 12));
    // In a plain tree (no cur/, new/) a file is a message as it is, a .gz one too.
    Path frank = dir.resolve("compressed/frank");
    Files.createDirectories(frank.resolve("files"));
    Files.write(frank.resolve("files/small.gz"), gzipped);
    SourceSpec source = MaildirSourceKind.of(dir.resolve("compressed"), "example.org", "auto");
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary =
          f.restore(new RestoreRequest(source, null, null, null, null, null, null, 0, 0, null));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(summary.counts().itemsRestored()).as("4 messages, a folder").isEqualTo(5);
      assertThat(f.engine.bookkeeping().failures().list(summary.id(), 0, 10))
          .singleElement()
          .satisfies(failure -> {
            assertThat(failure.location()).isEqualTo("cur/6002.M3P1.host:2,SZ");
            assertThat(failure.detail())
                .contains("compressed with gzip and does not decompress")
                .contains("cut short");
          });
      assertThat(StoreContents.message(f, "gzipped").flags()).as("Z is not a flag").isZero();
      assertThat(StoreContents.message(f, "zstd and large").state().size()).isEqualTo(large.length);

      ExportReport out =
          f.runtime.export(
              ExportFormat.installed().require("maildir"),
              null,
              List.of("eve@example.org"),
              dir.resolve("out/eve"));
      assertThat(out.problems()).isEmpty();
      assertThat(Files.readAllBytes(dir.resolve("out/eve").resolve(smallName))).isEqualTo(small);
      assertThat(Files.readAllBytes(dir.resolve("out/eve").resolve(largeName))).isEqualTo(large);
      assertThat(Files.readAllBytes(dir.resolve("out/eve").resolve(xzName))).isEqualTo(xzMessage);
      f.runtime.export(
          ExportFormat.installed().require("maildir"),
          null,
          List.of("frank@example.org"),
          dir.resolve("out/frank"));
      assertThat(Files.readAllBytes(dir.resolve("out/frank/files/small.gz"))).isEqualTo(gzipped);
    }
  }
}
