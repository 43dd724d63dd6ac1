package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;

/**
 * Real mail through the Maildir reader: the Enron subset and the MIME torture set are restored into
 * MariaDB and a volume, verified, then exported back; every file comes back byte for byte under its
 * name (the archives' SHA256SUMS pass against the export), in the same folder tree.
 */
class RealMailRoundTripIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  private String[] store(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--volume-packed");
    return Cli.args(all, Cli.store(own.database(), dir.resolve("volume")));
  }

  private String[] db(String... args) {
    return Cli.args(List.of(args), Cli.database(own.database()));
  }

  /** Restores {@code users}' directories, verifies, exports each user into {@code out}. */
  private void roundTrip(Path users, String domain, String layout, Path out) {
    String[] source = {
      "--maildir", users.toString(), "--maildir-domain", domain, "--maildir-layout", layout
    };
    List<String> restore = new ArrayList<>(List.of("restore", "run"));
    restore.addAll(List.of(source));
    Cli.Result restored = Cli.run(store(restore.toArray(String[]::new)));
    assertThat(restored.exitCode()).as(restored.out()).isZero();
    assertThat(restored.out()).contains("COMPLETED").contains(" 0 failed");

    List<String> verify = new ArrayList<>(List.of("verify"));
    verify.addAll(List.of(source));
    Cli.Result verified = Cli.run(store(verify.toArray(String[]::new)));
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");

    for (String user : userNames(users)) {
      Cli.Result exported =
          Cli.run(
              db(
                  "export",
                  "maildir",
                  "--account",
                  user + "@" + domain,
                  "--out",
                  out.resolve(user).toString()));
      assertThat(exported.exitCode()).as(exported.out()).isZero();
    }
  }

  private static List<String> userNames(Path users) {
    try (Stream<Path> list = Files.list(users)) {
      return list.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Every file under {@code root} as {@code ./relative/path} to its SHA-256. */
  private static Map<String, String> digests(Path root, String prefix) throws IOException {
    Map<String, String> digests = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        digests.put(
            "./" + prefix + root.relativize(p), BlobDigest.ofContent(Files.readAllBytes(p)).hex());
      }
    }
    return digests;
  }

  private static TreeSet<String> directories(Path root) throws IOException {
    TreeSet<String> dirs = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isDirectory).forEach(p -> dirs.add(root.relativize(p).toString()));
    }
    return dirs;
  }

  @Test
  void theEnronSubsetComesBackByteForByte() throws Exception {
    Path corpus = dir.resolve("corpus");
    Corpora.extract(Corpora.archive("enron-maildir-subset.tar.zst"), corpus);
    Path original = corpus.resolve("enron-maildir-subset");
    Path out = dir.resolve("export/maildir");
    roundTrip(original.resolve("maildir"), "enron.example", "plain", out);

    Map<String, String> expected = new TreeMap<>(Corpora.sums(original.resolve("SHA256SUMS")));
    expected.keySet().removeIf(path -> !path.startsWith("./maildir/"));
    assertThat(expected).hasSize(32_556);
    assertThat(digests(out, "maildir/"))
        .as("the export against the archive's SHA256SUMS")
        .isEqualTo(expected);
    assertThat(directories(out)).isEqualTo(directories(original.resolve("maildir")));
  }

  @Test
  void theMimeTortureSetComesBackByteForByte() throws Exception {
    Path corpus = dir.resolve("corpus");
    Corpora.extract(Corpora.archive("mime-tricky.tar.zst"), corpus);
    Path original = corpus.resolve("mime-tricky");
    Path out = dir.resolve("export");
    // The projects' fixture trees, read as plain one-file-per-message folders (every file kept).
    roundTrip(original, "mime.example", "plain", out);

    Map<String, String> expected = new TreeMap<>(Corpora.sums(original.resolve("SHA256SUMS")));
    expected.remove("./SHA256SUMS");
    assertThat(expected).hasSizeGreaterThan(2000);
    assertThat(digests(out, "")).isEqualTo(expected);
    TreeSet<String> originalDirs = directories(original);
    assertThat(directories(out)).isEqualTo(originalDirs);
  }
}
