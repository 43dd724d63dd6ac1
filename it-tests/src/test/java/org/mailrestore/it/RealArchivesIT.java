package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import tools.jackson.databind.JsonNode;

/**
 * Real mail as the archives administrators hold: the Enron subset laid out as one Zimbra archive
 * per user, and as mbox files in every dialect, restored through the CLI and exported again: each
 * message's bytes equal its source file's. And the real mbox files of the MIME parsers' test sets,
 * split where their own parser's offsets say.
 */
class RealArchivesIT {

  static final String DOMAIN = "enron.example";
  static final String SEPARATOR = "From enron@enron.example Mon May 14 23:39:00 2001";

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  private static String[] args(TestDatabase db, Path volume, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--volume-packed");
    return Cli.args(all, Cli.store(db, volume));
  }

  private static Cli.Result ok(Cli.Result r) {
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    return r;
  }

  private Path enron() throws Exception {
    Path corpus = dir.resolve("corpus");
    Corpora.extract(Corpora.archive("enron-maildir-subset.tar.zst"), corpus);
    return corpus.resolve("enron-maildir-subset");
  }

  private static List<String> users(Path maildir) throws IOException {
    try (Stream<Path> list = Files.list(maildir)) {
      return list.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Each user's messages as a sorted list of SHA-256, from the corpus's SHA256SUMS. */
  private static Map<String, List<String>> expected(Path original) throws IOException {
    Map<String, List<String>> byUser = new TreeMap<>();
    Corpora.sums(original.resolve("SHA256SUMS"))
        .forEach((path, sum) -> {
          if (path.startsWith("./maildir/")) {
            String user = path.split("/")[2];
            byUser.computeIfAbsent(user, u -> new ArrayList<>()).add(sum);
          }
        });
    byUser.values().forEach(l -> l.sort(null));
    return byUser;
  }

  /** Each user's exported messages (files under cur/ and new/) as a sorted list of SHA-256. */
  private static Map<String, List<String>> exported(Path out) throws IOException {
    Map<String, List<String>> byUser = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(out)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        String rel = out.relativize(p).toString();
        if (rel.matches("[^/]+/(.*/)?(cur|new)/[^/]+")) {
          byUser
              .computeIfAbsent(rel.substring(0, rel.indexOf('/')), u -> new ArrayList<>())
              .add(BlobDigest.ofContent(Files.readAllBytes(p)).hex());
        }
      }
    }
    byUser.values().forEach(l -> l.sort(null));
    return byUser;
  }

  private static void exportMaildir(TestDatabase db, List<String> users, Path out) {
    for (String user : users) {
      ok(
          Cli.run(
              Cli.args(
                  List.of(
                      "export",
                      "maildir",
                      "--account",
                      user + "@" + DOMAIN,
                      "--out",
                      out.resolve(user).toString()),
                  Cli.database(db))));
    }
  }

  @Test
  void enronAsOneZimbraArchivePerUserRestoresAndExportsByteForByte() throws Exception {
    Path original = enron();
    Path maildir = original.resolve("maildir");
    List<String> users = users(maildir);
    Path archives = dir.resolve("archives");
    TestDatabase first = own.database();
    ok(
        Cli.run(
            args(
                first,
                dir.resolve("volume-1"),
                "restore",
                "run",
                "--maildir",
                maildir.toString(),
                "--maildir-domain",
                DOMAIN,
                "--maildir-layout",
                "plain")));
    List<String> export =
        new ArrayList<>(List.of("export", "zimbra-tgz", "--out", archives.toString()));
    users.forEach(u -> export.addAll(List.of("--account", u + "@" + DOMAIN)));
    ok(Cli.run(Cli.args(export, Cli.database(first))));
    try (Stream<Path> files = Files.list(archives)) {
      assertThat(files.count()).isEqualTo(users.size());
    }

    try (TestDatabase second = TestMariaDb.createDatabase()) {
      Cli.Result restored =
          ok(
              Cli.run(
                  args(
                      second,
                      dir.resolve("volume-2"),
                      "restore",
                      "run",
                      "--zimbra-tgz",
                      archives.toString())));
      assertThat(restored.out()).contains("COMPLETED").contains(" 0 failed");
      Cli.Result verified =
          ok(
              Cli.run(
                  args(
                      second,
                      dir.resolve("volume-2"),
                      "verify",
                      "--zimbra-tgz",
                      archives.toString())));
      assertThat(verified.out()).contains("no differences");
      Path out = dir.resolve("export");
      exportMaildir(second, users, out);
      Map<String, List<String>> expected = expected(original);
      assertThat(expected.values().stream().mapToInt(List::size).sum()).isEqualTo(32_556);
      assertThat(exported(out)).isEqualTo(expected);
    }
  }

  /**
   * Lays a user's folders out as Thunderbird does: a file per folder, Name.sbd for its children.
   */
  private static int mboxTree(Path user, Path into, String dialect, boolean skipAmbiguous)
      throws IOException {
    Map<Path, List<Path>> byFolder = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(user)) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        byFolder.computeIfAbsent(user.relativize(p.getParent()), f -> new ArrayList<>()).add(p);
      }
    }
    int skipped = 0;
    for (Map.Entry<Path, List<Path>> folder : byFolder.entrySet()) {
      Path file = into;
      int n = folder.getKey().toString().isEmpty() ? 0 : folder.getKey().getNameCount();
      for (int i = 0; i < n - 1; i++) {
        file = file.resolve(folder.getKey().getName(i) + ".sbd");
      }
      file =
          n == 0 ? file.resolve("Inbox") : file.resolve(folder.getKey().getName(n - 1).toString());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (Path message : folder.getValue()) {
        byte[] bytes = Files.readAllBytes(message);
        if (skipAmbiguous
            && AMBIGUOUS.matcher(new String(bytes, StandardCharsets.ISO_8859_1)).find()) {
          skipped++;
          continue;
        }
        out.writeBytes(
            switch (dialect) {
              case "mboxrd" -> MboxWriter.mboxrd(bytes, SEPARATOR);
              case "mboxo" -> MboxWriter.mboxo(bytes, SEPARATOR);
              case "mboxcl" -> MboxWriter.mboxcl(bytes, SEPARATOR);
              default -> MboxWriter.mboxcl2(bytes, SEPARATOR);
            });
      }
      Files.createDirectories(file.getParent());
      Files.write(file, out.toByteArray());
    }
    return skipped;
  }

  /** A line mboxo cannot tell from a quoted one: ">From " as the message had it. */
  private static final Pattern AMBIGUOUS = Pattern.compile("(?m)^>+From ");

  @Test
  void enronAsMboxInEveryDialectRestoresAndExportsByteForByte() throws Exception {
    Path original = enron();
    Path maildir = original.resolve("maildir");
    List<String> users = users(maildir);
    Map<String, List<String>> all = expected(original);
    // mboxrd: the whole corpus; the other dialects: five users each
    Map<String, List<String>> plan = new TreeMap<>();
    plan.put("mboxrd", users);
    plan.put("mboxo", users.subList(0, 5));
    plan.put("mboxcl", users.subList(5, 10));
    plan.put("mboxcl2", users.subList(10, 15));
    Path out = dir.resolve("export");
    Map<String, List<String>> expected = new TreeMap<>();
    int skipped = 0;
    for (Map.Entry<String, List<String>> d : plan.entrySet()) {
      String dialect = d.getKey();
      boolean lossy = dialect.equals("mboxo") || dialect.equals("mboxcl");
      try (TestDatabase db = TestMariaDb.createDatabase()) {
        for (String user : d.getValue()) {
          Path tree = dir.resolve("mbox-" + dialect).resolve(user);
          skipped += mboxTree(maildir.resolve(user), tree, dialect, lossy);
          Cli.Result r =
              ok(
                  Cli.run(
                      args(
                          db,
                          dir.resolve("volume-" + dialect),
                          "restore",
                          "run",
                          "--mbox",
                          tree.toString(),
                          "--mbox-account",
                          user + "@" + DOMAIN,
                          "--mbox-dialect",
                          dialect)));
          assertThat(r.out()).contains(" 0 failed");
          Path userOut = out.resolve(dialect);
          exportMaildir(db, List.of(user), userOut);
          List<String> want = new ArrayList<>();
          try (Stream<Path> walk = Files.walk(maildir.resolve(user))) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
              byte[] bytes = Files.readAllBytes(p);
              if (!(lossy
                  && AMBIGUOUS.matcher(new String(bytes, StandardCharsets.ISO_8859_1)).find())) {
                want.add(BlobDigest.ofContent(bytes).hex());
              }
            }
          }
          want.sort(null);
          expected.put(dialect + "/" + user, want);
          if (!lossy) {
            assertThat(want).isEqualTo(all.get(user));
          }
        }
      }
    }
    assertThat(skipped).as("the messages mboxo cannot carry exactly (documented)").isLessThan(10);
    Map<String, List<String>> actual = new TreeMap<>();
    for (String dialect : plan.keySet()) {
      exported(out.resolve(dialect))
          .forEach((user, sums) -> actual.put(dialect + "/" + user, sums));
    }
    assertThat(actual).isEqualTo(expected);
  }

  /**
   * MimeKit's test mbox files with the offsets its own parser reports: our messages are the bytes
   * between its offsets, but for two documented choices: {@code >From } unquoted (mboxrd), and the
   * line ending at the very end of a file taken as the mbox's.
   */
  @Test
  void theMimeParsersMboxFilesSplitWhereTheirOwnOffsetsSay() throws Exception {
    Path corpus = dir.resolve("corpus");
    Corpora.extract(Corpora.archive("mime-tricky.tar.zst"), corpus);
    Path data = corpus.resolve("mime-tricky/dotnet-mimekit/UnitTests/TestData/mbox");
    TestDatabase db = own.database();
    for (String name : List.of("content-length", "issue1189")) {
      byte[] mbox = Files.readAllBytes(data.resolve(name + ".mbox.txt"));
      JsonNode offsets =
          Json.MAPPER.readTree(Files.readAllBytes(data.resolve(name + ".unix-offsets.json")));
      List<String> want = new ArrayList<>();
      for (int i = 0; i < offsets.size(); i++) {
        JsonNode o = offsets.get(i);
        String text =
            new String(
                mbox,
                o.get("beginOffset").asInt(),
                o.get("endOffset").asInt() - o.get("beginOffset").asInt(),
                StandardCharsets.ISO_8859_1);
        text = text.replaceAll("(?m)^>(>*From )", "$1");
        if (i == offsets.size() - 1 && text.endsWith("\n")) {
          text = text.substring(0, text.length() - (text.endsWith("\r\n") ? 2 : 1));
        }
        want.add(BlobDigest.ofContent(text.getBytes(StandardCharsets.ISO_8859_1)).hex());
      }
      want.sort(null);
      String account = name + "@mime.example";
      Cli.Result r =
          ok(
              Cli.run(
                  args(
                      db,
                      dir.resolve("volume"),
                      "restore",
                      "run",
                      "--mbox",
                      data.resolve(name + ".mbox.txt").toString(),
                      "--mbox-account",
                      account)));
      assertThat(r.out()).contains(" 0 failed");
      Path out = dir.resolve("mime-export").resolve(name);
      ok(
          Cli.run(
              Cli.args(
                  List.of("export", "maildir", "--account", account, "--out", out.toString()),
                  Cli.database(db))));
      List<String> got = new ArrayList<>();
      try (Stream<Path> walk = Files.walk(out)) {
        for (Path p :
            walk.filter(Files::isRegularFile)
                .sorted(Comparator.naturalOrder())
                .filter(p -> out.relativize(p).toString().matches("(.*/)?(cur|new)/[^/]+"))
                .toList()) {
          got.add(BlobDigest.ofContent(Files.readAllBytes(p)).hex());
        }
      }
      got.sort(null);
      assertThat(got).as(name).hasSize(offsets.size()).isEqualTo(want);
    }
  }
}
