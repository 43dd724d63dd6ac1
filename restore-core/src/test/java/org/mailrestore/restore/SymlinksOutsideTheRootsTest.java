package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.PathFence;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.mbox.MboxSourceKind;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.zimbra.ZimbraTgzKind;

/**
 * The allowed roots hold for every file a source reads, not just its top directory: for each kind
 * of source, links inside the root that lead outside are refused or not followed, reported, and
 * nothing from outside is restored; no error quotes the contents of a file outside.
 */
class SymlinksOutsideTheRootsTest {

  static final String SECRET = "secret-token-4711";
  static final String MESSAGE =
      "From: a@example.org\r\nTo: b@example.org\r\nSubject: %s\r\nMessage-ID: <%s@x>\r\n\r\nbody\r\n";

  @TempDir Path dir;
  Path root;
  Path outside;

  @BeforeEach
  void layout() throws Exception {
    root = Files.createDirectories(dir.resolve("allowed"));
    outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), SECRET + " and more\n");
  }

  private RestoreFixture fenced() throws Exception {
    return new RestoreFixture(PathFence.around(List.of(root)));
  }

  private static String failures(RestoreFixture f, String operation) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (FailureRecord r : f.engine.bookkeeping().failures().list(operation, 0, 1000)) {
      sb.append(r.location()).append(": ").append(r.detail()).append('\n');
    }
    OperationSummary s = f.engine.operations().find(operation).orElseThrow();
    return sb.append(s.message() == null ? "" : s.message()).toString();
  }

  private OperationSummary restore(RestoreFixture f, SourceSpec source) throws Exception {
    return f.restore(RestoreRequest.of(source));
  }

  @Test
  void aBackupWhoseEntriesLinkOutsideIsNotRead() throws Exception {
    Path real = outside.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(20), real);
    Path linked = Files.createDirectories(root.resolve("backup"));
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(real)) {
      for (Path e : entries) {
        Files.createSymbolicLink(linked.resolve(e.getFileName()), e);
      }
    }
    try (RestoreFixture f = fenced()) {
      OperationSummary s = restore(f, BackupSourceKind.local(linked));
      assertThat(s.state()).isEqualTo(OperationState.FAILED);
      assertThat(s.counts().itemsRestored()).isZero();
      assertThat(s.message()).contains("leads outside the allowed roots");
      assertThat(StoreContents.messages(f)).isZero();
    }
    // Without a fence (the CLI: the administrator's own paths) the same backup restores.
    try (RestoreFixture f = new RestoreFixture()) {
      assertThat(restore(f, BackupSourceKind.local(linked)).counts().itemsRestored()).isPositive();
    }
  }

  @Test
  void aBackupManifestLinkedToAFileOutsideIsRefusedWithoutQuotingIt() throws Exception {
    Path backup = root.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(5), backup);
    Files.delete(backup.resolve("backup.json"));
    Files.createSymbolicLink(backup.resolve("backup.json"), outside.resolve("secret.txt"));
    try (RestoreFixture f = fenced()) {
      OperationSummary s = restore(f, BackupSourceKind.local(backup));
      assertThat(s.state()).isEqualTo(OperationState.FAILED);
      assertThat(failures(f, s.id()))
          .doesNotContain("secret")
          .contains("outside the allowed roots");
    }
    // Unfenced, the file is read, found not to be JSON, and still not quoted.
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary s = restore(f, BackupSourceKind.local(backup));
      assertThat(s.state()).isEqualTo(OperationState.FAILED);
      assertThat(failures(f, s.id())).doesNotContain("secret").contains("not valid JSON");
    }
  }

  @Test
  void maildirLinksAreNotFollowed() throws Exception {
    Path cur = Files.createDirectories(root.resolve("maildir/alice/cur"));
    Files.createDirectories(root.resolve("maildir/alice/new"));
    Files.writeString(cur.resolve("1.host:2,S"), MESSAGE.formatted("inside", "in"));
    Path away = Files.createDirectories(outside.resolve("Maildir/cur"));
    Files.writeString(away.resolve("2.host:2,S"), MESSAGE.formatted(SECRET, "out"));
    Files.createSymbolicLink(cur.resolve("3.host:2,S"), away.resolve("2.host:2,S"));
    Files.createSymbolicLink(root.resolve("maildir/alice/.Away"), outside.resolve("Maildir"));
    Files.createSymbolicLink(root.resolve("maildir/bob"), outside.resolve("Maildir"));
    try (RestoreFixture f = fenced()) {
      OperationSummary s =
          restore(f, MaildirSourceKind.of(root.resolve("maildir"), "example.org", "auto"));
      assertThat(s.counts().itemsRestored()).isEqualTo(1);
      assertThat(StoreContents.withSubject(f, SECRET)).isZero();
      assertThat(failures(f, s.id())).contains("symbolic link").doesNotContain(SECRET);
    }
  }

  @Test
  void mboxLinksAreNotFollowed() throws Exception {
    Path tree = Files.createDirectories(root.resolve("mbox"));
    Files.writeString(
        tree.resolve("Inbox"),
        "From a@example.org Mon Jan  1 00:00:00 2024\n" + MESSAGE.formatted("inside", "in"),
        StandardCharsets.US_ASCII);
    Files.writeString(
        outside.resolve("Other"),
        "From a@example.org Mon Jan  1 00:00:00 2024\n" + MESSAGE.formatted(SECRET, "out"),
        StandardCharsets.US_ASCII);
    Files.createSymbolicLink(tree.resolve("Other"), outside.resolve("Other"));
    try (RestoreFixture f = fenced()) {
      OperationSummary s =
          restore(f, MboxSourceKind.of(tree, "alice@example.org", "auto", "folders"));
      assertThat(s.counts().itemsRestored()).isEqualTo(1);
      assertThat(StoreContents.withSubject(f, SECRET)).isZero();
      assertThat(failures(f, s.id())).contains("symbolic link");
    }
  }

  @Test
  void zimbraArchivesThatAreLinksAreNotFollowed() throws Exception {
    Path archives = Files.createDirectories(root.resolve("archives"));
    Files.copy(outside.resolve("secret.txt"), outside.resolve("bob@example.org.tgz"));
    Files.createSymbolicLink(
        archives.resolve("bob@example.org.tgz"), outside.resolve("bob@example.org.tgz"));
    try (RestoreFixture f = fenced()) {
      OperationSummary s = restore(f, ZimbraTgzKind.local(archives));
      assertThat(s.state()).isIn(OperationState.FAILED, OperationState.PARTIAL);
      assertThat(s.counts().itemsRestored()).isZero();
      assertThat(failures(f, s.id())).contains("symbolic link").doesNotContain("secret");
    }
  }
}
