package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.PathFence;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.mbox.MboxSourceKind;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.zimbra.ArchiveBuilder;
import org.mailrestore.zimbra.ZimbraTgzKind;

/**
 * The allowed roots hold when what is inside them changes (issue 41): a directory or a file of a
 * source swapped for a symbolic link that leads outside, between two operations, while an operation
 * waits in the queue, and while it runs, for every local kind of source. Nothing from outside is
 * restored, whatever the timing; where the swap is met, it is reported.
 */
class SwappedPathsTest {

  static final String SECRET = "planted-outside-4711";

  @TempDir Path dir;
  Path root;
  Path outside;

  @BeforeEach
  void layout() throws Exception {
    root = Files.createDirectories(dir.resolve("allowed"));
    outside = Files.createDirectories(dir.resolve("outside"));
  }

  /** A source laid out inside the root, and the swap of one of its parts for a link outside. */
  private record Scenario(SourceSpec spec, Swap swap) {}

  @FunctionalInterface
  private interface Swap {
    void run() throws Exception;
  }

  @ParameterizedTest(name = "{0}, swapped {1}")
  @CsvSource({
    "backup, between",
    "backup, queued",
    "backup, during",
    "maildir, between",
    "maildir, queued",
    "maildir, during",
    "mbox, between",
    "mbox, queued",
    "mbox, during",
    "zimbra, between",
    "zimbra, queued",
    "zimbra, during"
  })
  void nothingFromOutsideIsRestored(String kind, String when) throws Exception {
    Scenario scenario =
        switch (kind) {
          case "backup" -> backup();
          case "maildir" -> maildir();
          case "mbox" -> mbox();
          default -> zimbra();
        };
    try (RestoreFixture f = new RestoreFixture(PathFence.around(List.of(root)))) {
      RestoreRequest request = RestoreRequest.of(scenario.spec()).withClusterSize(20);
      OperationSummary ended;
      switch (when) {
        case "between" -> {
          OperationSummary first = f.restore(request);
          assertThat(first.state()).as(first.message()).isEqualTo(OperationState.COMPLETED);
          scenario.swap().run();
          ended = f.restore(request);
        }
        case "queued" -> {
          String id = f.engine.submit(request, null);
          scenario.swap().run();
          ended = f.engine.run(id);
        }
        default -> {
          String id = f.engine.submit(request, null);
          f.engine.bookkeeping().throttles().set(id, Pace.of(300.0, null));
          CompletableFuture<OperationSummary> running = f.runInBackground(id);
          awaitSomeRestored(f, id);
          scenario.swap().run();
          ended = running.get(3, TimeUnit.MINUTES);
        }
      }
      assertThat(leaked(f))
          .as("%s swapped %s: messages from outside the roots", kind, when)
          .isEmpty();
      if (!when.equals("during")) {
        // The swap was there before the operation read that part: it was met and reported.
        assertThat(ended.state()).as(ended.message()).isNotEqualTo(OperationState.COMPLETED);
        StringBuilder failures = new StringBuilder(String.valueOf(ended.message()));
        f.engine
            .bookkeeping()
            .failures()
            .list(ended.id(), 0, 1000)
            .forEach(r -> failures.append('\n').append(r.detail()));
        assertThat(failures.toString())
            .containsAnyOf("outside the allowed roots", "symbolic link")
            .doesNotContain(SECRET);
      }
    }
  }

  /** Subjects of what came from outside: the planted messages, or the planted archive's. */
  private static List<String> leaked(RestoreFixture f) throws Exception {
    return StoreContents.held(f).stream()
        .map(h -> String.valueOf(h.state().subject()))
        .filter(subject -> subject.contains(SECRET) || subject.startsWith("message 9000"))
        .toList();
  }

  private static void awaitSomeRestored(RestoreFixture f, String id) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (f.engine.bookkeeping().accounts().list(id).stream()
            .mapToLong(AccountProgress::itemsRestored)
            .sum()
        < 20) {
      assertThat(System.nanoTime()).as("items restored within a minute").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static String message(String subject, int i) {
    return "From: a@example.org\r\nTo: b@example.org\r\nSubject: "
        + subject
        + " "
        + i
        + "\r\nMessage-ID: <"
        + subject
        + "."
        + i
        + "@x>\r\n\r\nbody "
        + i
        + "\r\n";
  }

  /**
   * Six accounts, restored three at a time: the last one's directory is swapped for a link to an
   * account directory outside whose item is planted (its blob put in the backup's own blobs).
   */
  private Scenario backup() throws Exception {
    Path backup = root.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(6)
            .withDomains(1)
            .withItemsPerAccount(60)
            .withLargeRate(0)
            .withShares(false),
        backup);
    String last;
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      last = reader.accountIds().get(reader.accountIds().size() - 1);
    }
    byte[] planted = message(SECRET, 0).getBytes(StandardCharsets.US_ASCII);
    BlobDigest digest = BlobDigest.ofContent(planted);
    Path blob = backup.resolve(BackupLayout.BLOBS).resolve(digest.shard()).resolve(digest.hex());
    Files.createDirectories(blob.getParent());
    Files.write(blob, planted);
    Path away = Files.createDirectories(outside.resolve("account"));
    Files.copy(backup.resolve(BackupLayout.accountFile(last)), away.resolve("account.json"));
    try (OutputStream out =
        new ZstdOutputStream(Files.newOutputStream(away.resolve(BackupLayout.PACKED_ITEMS)))) {
      out.write(
          ("{\"id\":400,\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"folder\":2,"
                  + "\"size\":"
                  + planted.length
                  + ",\"digest\":\""
                  + digest.hex()
                  + "\",\"subject\":\""
                  + SECRET
                  + "\"}]}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    Path accountDir = backup.resolve(BackupLayout.accountDir(last));
    return new Scenario(BackupSourceKind.local(backup), () -> swapForLink(accountDir, away));
  }

  /** One user, two folders: the second folder's cur/ is swapped for one outside. */
  private Scenario maildir() throws Exception {
    Path alice = root.resolve("maildir/alice");
    for (String folder : List.of("", ".Later")) {
      Path cur = Files.createDirectories(alice.resolve(folder).resolve("cur"));
      Files.createDirectories(alice.resolve(folder).resolve("new"));
      for (int i = 0; i < 150; i++) {
        Files.writeString(
            cur.resolve("1700000" + i + ".M" + i + "P1.host" + folder + ":2,S"),
            message("inside" + folder, i));
      }
    }
    Path away = Files.createDirectories(outside.resolve("cur"));
    Files.writeString(away.resolve("1.M1P1.host:2,S"), message(SECRET, 0));
    Path later = alice.resolve(".Later/cur");
    return new Scenario(
        MaildirSourceKind.of(root.resolve("maildir"), "example.org", "auto"),
        () -> swapForLink(later, away));
  }

  /** A tree of two folders: the second folder's directory is swapped for one outside. */
  private Scenario mbox() throws Exception {
    Path tree = Files.createDirectories(root.resolve("mbox"));
    String separator = "From - Mon May 14 23:39:00 2001";
    byte[][] inbox = new byte[300][];
    for (int i = 0; i < inbox.length; i++) {
      inbox[i] =
          MboxWriter.mboxrd(message("inside", i).getBytes(StandardCharsets.UTF_8), separator);
    }
    Files.write(tree.resolve("Inbox"), MboxWriter.concat(inbox));
    Path work = Files.createDirectories(tree.resolve("Work.sbd"));
    Files.write(
        work.resolve("Reports"),
        MboxWriter.mboxrd(message("work", 0).getBytes(StandardCharsets.UTF_8), separator));
    Path away = Files.createDirectories(outside.resolve("Work.sbd"));
    Files.write(
        away.resolve("Reports"),
        MboxWriter.mboxrd(message(SECRET, 0).getBytes(StandardCharsets.UTF_8), separator));
    return new Scenario(
        MboxSourceKind.of(tree, "alice@example.org", "mboxrd", "tags"),
        () -> swapForLink(work, away));
  }

  /** Four accounts' archives: the last one is swapped for an archive outside. */
  private Scenario zimbra() throws Exception {
    Path generated = dir.resolve("generated");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(4)
            .withDomains(1)
            .withItemsPerAccount(80)
            .withLargeRate(0)
            .withShares(false),
        generated);
    Path archives = Files.createDirectories(root.resolve("archives"));
    ExportFormat tgz = ExportFormat.installed().require("zimbra-tgz");
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(generated))) {
      tgz.export(reader, reader.accountIds(), archives);
    }
    Path last;
    try (var list = Files.list(archives)) {
      last = list.sorted().toList().getLast();
    }
    Path away = outside.resolve("archive.tgz");
    ArchiveBuilder planted = new ArchiveBuilder().folder(2, "/Inbox");
    for (int i = 0; i < 5; i++) {
      planted.message(
          900_000 + i, "/Inbox", message(SECRET, i).getBytes(StandardCharsets.US_ASCII), "", null);
    }
    planted.write(away);
    return new Scenario(
        ZimbraTgzKind.local(archives),
        () -> {
          Files.delete(last);
          Files.createSymbolicLink(last, away);
        });
  }

  /** Moves {@code path} aside (out of the root) and puts a link to {@code target} in its place. */
  private void swapForLink(Path path, Path target) throws Exception {
    Files.move(path, outside.resolve("moved-" + System.nanoTime()));
    Files.createSymbolicLink(path, target);
  }
}
