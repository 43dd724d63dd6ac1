package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * The Enron subset restored over IMAP into real servers the tests start, read back by a real client
 * (Python's imaplib): every message is its source file (IMAP carries lines as CRLF, so the source's
 * bare LFs are compared as CRLF; {@code verify}, which undoes that, is checked byte for byte), in
 * its folder, with its flags; a second run appends nothing; SIGKILLs in phase 2 lose and double
 * nothing.
 */
abstract class ImapRestoreScenarios {

  /** The server these scenarios run against. */
  abstract ImapServers kind();

  private static final int KILLS = 5;

  @TempDir static Path corpus;
  static Path maildir;

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @BeforeAll
  static void unpackEnron() throws Exception {
    Corpora.extract(Corpora.archive("enron-maildir-subset.tar.zst"), corpus);
    maildir = corpus.resolve("enron-maildir-subset/maildir");
  }

  private List<String> args(ImapServers.Server server, String command, String domain) {
    return args(server, command, maildir, domain);
  }

  /** {@code command} (e.g. "restore run") of a plain Maildir tree into the server. */
  List<String> args(ImapServers.Server server, String command, Path tree, String domain) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of("--maildir", tree.toString(), "--maildir-domain", domain));
    args.addAll(List.of("--maildir-layout", "plain"));
    args.addAll(server.targetArgs());
    args.addAll(Cli.database(own.database()));
    return args;
  }

  CliProcess start(ImapServers.Server server, List<String> args) {
    return CliProcess.start(own.database().server().password(), null, server.environment(), args);
  }

  String run(ImapServers.Server server, List<String> args) throws Exception {
    CliProcess process = start(server, args);
    int exit = process.waitFor(600);
    System.out.println(process.output()); // in the test's report, for a failure that comes later
    assertThat(exit).as(process.output()).isZero();
    return process.output();
  }

  @Test
  void enronIsRestoredVerifiedAndReadBackByARealClientAndASecondRunAppendsNothing()
      throws Exception {
    ImapServers kind = kind();
    ImapServers.Server server = kind.start();
    String domain = "e" + Long.toHexString(System.nanoTime()) + ".example";
    List<String> logins = logins(domain);
    server.prepare(logins);

    String first = run(server, args(server, "restore run", domain));
    assertThat(first).contains("COMPLETED").contains(" 0 failed");
    String verified = run(server, args(server, "verify", domain));
    assertThat(verified).contains("no differences");

    Map<String, Integer> expected = expected(domain);
    assertThat(expected.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(32_556);
    assertSame(messages(server.readBack(dir, logins)), expected, "after the restore");

    String second = run(server, args(server, "restore run", domain));
    assertThat(second).contains("COMPLETED").contains(" 0 restored");
    assertSame(messages(server.readBack(dir, logins)), expected, "after a second run");

    // export reads the server back: every message of an account as its source file, byte for byte
    String login = "allen-p@" + domain;
    Path out = dir.resolve("export");
    List<String> export =
        new ArrayList<>(List.of("export", "maildir", "--account", login, "--out", out.toString()));
    export.addAll(server.targetArgs());
    export.addAll(Cli.database(own.database()));
    run(server, export);
    assertThat(contents(out)).isEqualTo(contents(maildir.resolve("allen-p")));
  }

  /** The SHA-256 of every message file under a tree (Maildir's cur/ and new/, or any), counted. */
  private static Map<String, Integer> contents(Path root) throws IOException {
    Map<String, Integer> digests = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        String parent = file.getParent().getFileName().toString();
        boolean maildir = Files.isDirectory(file.getParent().resolveSibling("cur"));
        if (!maildir || parent.equals("cur") || parent.equals("new")) {
          digests.merge(BlobDigest.ofContent(Files.readAllBytes(file)).hex(), 1, Integer::sum);
        }
      }
    }
    return digests;
  }

  @Test
  void killedFiveTimesInPhaseTwoThenResumedLosesAndDoublesNothing() throws Exception {
    ImapServers kind = kind();
    ImapServers.Server server = kind.start();
    String domain = "k" + Long.toHexString(System.nanoTime()) + ".example";
    List<String> logins = logins(domain);
    server.prepare(logins);
    List<String> restore = args(server, "restore run", domain);
    restore.addAll(List.of("--lease-seconds", "3"));

    // The kill points come from the seed a failure names: -Dmailrestore.it.kill-seed=N replays
    // them.
    long seed = Long.getLong("mailrestore.it.kill-seed", System.nanoTime());
    SplittableRandom random = new SplittableRandom(seed);
    String operation = null;
    int kills = 0;
    long killAt = 1 + random.nextInt(2_000);
    while (kills < KILLS) {
      List<String> args = new ArrayList<>(restore);
      if (operation != null) {
        args.addAll(List.of("--operation", operation));
      }
      CliProcess child = start(server, args);
      operation = child.operation();
      long threshold = killAt;
      if (!awaitAppended(child, n -> n >= threshold)) {
        break; // it finished before this kill point
      }
      child.kill();
      System.out.println(child.output()); // in the test's report, for a failure that comes later
      kills++;
      killAt = appended() + 200 + random.nextInt(3_000);
    }
    assertThat(kills).as("kills (seed %d)", seed).isEqualTo(KILLS);

    List<String> resume = new ArrayList<>(restore);
    resume.addAll(List.of("--operation", operation));
    String resumed = run(server, resume);
    assertThat(resumed).contains("COMPLETED").contains(" 0 failed");
    assertSame(
        messages(server.readBack(dir, logins)),
        expected(domain),
        kind + ", after " + KILLS + " kills (seed " + seed + ")");
    assertThat(run(server, args(server, "verify", domain))).contains("no differences");
  }

  /**
   * Several hosts, as one host sees it (issue 41): the first process is paused (SIGSTOP) in the
   * middle of its appends, past its lease, while a second takes its accounts and the operation
   * over; then it is let go. It finds its leases gone and appends nothing more (decision 0043): the
   * operation ends COMPLETED and the server holds every message once, read back by a real client.
   */
  @Test
  void pausedPastItsLeaseThenLetGoAppendsNothingTwice() throws Exception {
    ImapServers kind = kind();
    ImapServers.Server server = kind.start();
    String domain = "p" + Long.toHexString(System.nanoTime()) + ".example";
    List<String> logins = logins(domain);
    server.prepare(logins);
    List<String> restore = args(server, "restore run", domain);
    restore.addAll(List.of("--lease-seconds", "3"));

    CliProcess first = start(server, restore);
    String operation = first.operation();
    assertThat(awaitAppended(first, n -> n >= 500))
        .as("the first process is mid-way when paused:%n%s", first.output())
        .isTrue();
    first.pause();
    long atPause = appended();
    List<String> takeOver = new ArrayList<>(restore);
    takeOver.addAll(List.of("--operation", operation));
    CliProcess second = start(server, takeOver);
    // Paused well past its 3 s lease, while the second takes over; a transaction the first left
    // open holds its rows until it goes on, so it goes on after at most 15 s.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < until && second.isAlive() && appended() < atPause + 500) {
      Thread.sleep(50);
    }
    Thread.sleep(3_000); // past the lease in any case
    first.resume();
    int secondExit = second.waitFor(600);
    System.out.println("second process exited " + secondExit + ":\n" + second.output());
    int firstExit = first.waitFor(120);
    System.out.println("first process exited " + firstExit + ":\n" + first.output());
    assertThat(secondExit).as(second.output()).isZero();
    assertThat(operationState(operation)).as(first.output()).isEqualTo("COMPLETED");
    assertSame(
        messages(server.readBack(dir, logins)),
        expected(domain),
        kind + ", the first process paused past its lease, then let go");
    assertThat(run(server, args(server, "verify", domain))).contains("no differences");
  }

  private String operationState(String operation) throws Exception {
    try (Connection c = own.database().dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT state FROM restore_operation WHERE id = '" + operation + "'")) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  static Map<String, Integer> only(Map<String, Integer> messages, String prefix) {
    Map<String, Integer> some = new TreeMap<>(messages);
    some.keySet().removeIf(k -> !k.startsWith(prefix));
    return some;
  }

  static long count(Map<String, Integer> messages, String prefix) {
    return messages.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** A tree of some Enron users (hard links to the unpacked corpus). */
  Path usersOfEnron(String... users) throws IOException {
    Path tree = dir.resolve("enron-" + String.join("-", users));
    for (String user : users) {
      try (Stream<Path> walk = Files.walk(maildir.resolve(user))) {
        for (Path p : walk.toList()) {
          Path copy = tree.resolve(maildir.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(copy);
          } else {
            Files.createLink(copy, p);
          }
        }
      }
    }
    return tree;
  }

  /**
   * A generated backup's shares become ACLs that a real client reads with GETACL (rights as
   * docs/imap-target.md maps them: r to lrs, w to w, i to ik, d to tex); its contacts and
   * appointments are reported once per account as not carried, with counts.
   */
  @Test
  void sharesBecomeAclsThatARealClientReads() throws Exception {
    ImapServers kind = kind();
    ImapServers.Server server = kind.start();
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 6, 40, 5);
    Map<String, Set<String>> expected = new TreeMap<>();
    List<String> logins = new ArrayList<>();
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        String owner = reader.account(id) instanceof Parsed.Ok<Account> ok ? ok.value().name() : id;
        logins.add(owner);
        Map<Integer, String> folderNames = folderNames(reader, id);
        if (reader.grants(id) instanceof Parsed.Ok<List<Grant>> grants) {
          for (Grant g : grants.value()) {
            if (g.granteeType() == GranteeType.USER) {
              expected
                  .computeIfAbsent(owner, o -> new TreeSet<>())
                  .add(
                      folderNames.get(g.folderId())
                          + " "
                          + g.granteeName()
                          + " "
                          + imap(g.rights()));
            }
          }
        }
      }
    }
    assertThat(expected).as("the generated backup has user shares").isNotEmpty();
    server.prepare(logins);

    List<String> restore =
        new ArrayList<>(List.of("restore", "run", "--backup", backup.toString()));
    restore.addAll(server.targetArgs());
    restore.addAll(Cli.database(own.database()));
    String out = run(server, restore);
    assertThat(out).contains("COMPLETED");

    Map<String, Set<String>> acls = new TreeMap<>();
    for (String line : server.readBack(dir, logins)) {
      String[] f = line.split("\t", -1);
      if (f[0].equals("A") && !f[3].equals(f[1]) && logins.contains(f[3])) {
        String leaf = f[2].substring(f[2].lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        // RFC 4314 2.1.1: servers also show the obsolete c and d of RFC 2086 (both of ours do).
        String rights = sorted(f[4].replace("c", "").replace("d", ""));
        acls.computeIfAbsent(f[1], o -> new TreeSet<>()).add(leaf + " " + f[3] + " " + rights);
      }
    }
    assertThat(acls).isEqualTo(expected);

    try (Connection c = own.database().dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT source_account_id, detail FROM restore_failure WHERE reason = 'NOT_CARRIED'"
                    + " AND phase = 'data'")) {
      Map<String, String> leftOut = new TreeMap<>();
      while (rs.next()) {
        assertThat(leftOut.put(rs.getString(1), rs.getString(2)))
            .as("one report per account")
            .isNull();
      }
      assertThat(leftOut).isNotEmpty();
      assertThat(leftOut.values())
          .allSatisfy(detail -> assertThat(detail).matches(".*left out: \\d+ \\w+.*"));
    }
  }

  /** Each folder's leaf name as a client sees it (lower case; the Inbox as "inbox"). */
  private static Map<Integer, String> folderNames(BackupReader reader, String accountId)
      throws IOException {
    Map<Integer, String> names = new TreeMap<>();
    try (ItemStream stream = reader.items(accountId, Set.of(ItemType.FOLDER))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
          names.put(d.item().id(), d.item().latest().get().name().toLowerCase(Locale.ROOT));
        }
      }
    }
    return names;
  }

  /** Zimbra's rights as IMAP rights, the mapping of docs/imap-target.md, sorted. */
  private static String imap(String zimbra) {
    StringBuilder rights = new StringBuilder();
    for (char c : zimbra.toCharArray()) {
      rights.append(
          switch (c) {
            case 'r' -> "lrs";
            case 'w' -> "w";
            case 'i' -> "ik";
            case 'd' -> "tex";
            case 'a' -> "a";
            default -> "";
          });
    }
    return sorted(rights.toString());
  }

  private static String sorted(String rights) {
    return rights
        .chars()
        .sorted()
        .distinct()
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
        .toString();
  }

  private long appended() throws Exception {
    try (Connection c = own.database().dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT table_rows IS NOT NULL FROM information_schema.tables"
                    + " WHERE table_schema = DATABASE() AND table_name = 'imap_message'")) {
      if (!rs.next()) {
        return 0; // the restore has not made its tables yet
      }
    }
    try (Connection c = own.database().dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM imap_message")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private boolean awaitAppended(CliProcess process, java.util.function.LongPredicate until)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (process.isAlive()) {
      if (until.test(appended())) {
        return true;
      }
      assertThat(System.nanoTime())
          .as("no progress in 3 minutes:%n%s", process.output())
          .isLessThan(deadline);
      Thread.sleep(20);
    }
    return false;
  }

  private static List<String> logins(String domain) throws IOException {
    return logins(maildir, domain);
  }

  static List<String> logins(Path root, String domain) throws IOException {
    try (Stream<Path> users = Files.list(root)) {
      return users
          .filter(Files::isDirectory)
          .map(p -> p.getFileName() + "@" + domain)
          .sorted()
          .toList();
    }
  }

  /** Each message once, none missing, none more: the first differences named when not. */
  static void assertSame(Map<String, Integer> actual, Map<String, Integer> expected, String when) {
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    expected.forEach((m, n) -> {
      int held = actual.getOrDefault(m, 0);
      if (held < n) {
        missing.add(m + " x" + (n - held));
      } else if (held > n) {
        extra.add(m + " x" + (held - n));
      }
    });
    actual.forEach((m, n) -> {
      if (!expected.containsKey(m)) {
        extra.add(m + " x" + n);
      }
    });
    // Both lists in one message: a message missing in one place often shows up doubled in another.
    assertThat(missing.isEmpty() && extra.isEmpty())
        .as(
            "%s: %d messages missing %s; %d not in the source or doubled %s",
            when,
            missing.size(),
            missing.stream().limit(20).toList(),
            extra.size(),
            extra.stream().limit(20).toList())
        .isTrue();
  }

  /** The messages a client reads: "user folder flags sha256" to how many times. */
  static Map<String, Integer> messages(List<String> lines) {
    Map<String, Integer> seen = new TreeMap<>();
    for (String line : lines) {
      String[] f = line.split("\t", -1);
      if (f[0].equals("M")) {
        seen.merge(f[1] + " " + f[2] + " [" + f[3] + "] " + f[4], 1, Integer::sum);
      }
    }
    return seen;
  }

  /** The same from the source tree: each file in its folder, its lines ended as IMAP ends them. */
  private static Map<String, Integer> expected(String domain) throws IOException {
    return expected(maildir, domain);
  }

  static Map<String, Integer> expected(Path root, String domain) throws IOException {
    Map<String, Integer> expected = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        Path relative = root.relativize(file);
        String user = relative.getName(0) + "@" + domain;
        String folder =
            relative.getNameCount() == 2
                ? "INBOX"
                : serverFolder(relative.subpath(1, relative.getNameCount() - 1));
        String sha = BlobDigest.ofContent(crlf(Files.readAllBytes(file))).hex();
        // A file of a plain tree carries no flags: it was read (Maildir's S), as the source says.
        expected.merge(user + " " + folder + " [\\Seen] " + sha, 1, Integer::sum);
      }
    }
    return expected;
  }

  /** Top-level folders named as system folders become the server's (Enron's inbox, sent). */
  private static String serverFolder(Path folder) {
    String top = folder.getName(0).toString();
    String mapped =
        switch (top.toLowerCase(Locale.ROOT)) {
          case "inbox" -> "INBOX";
          case "sent" -> "Sent";
          case "drafts" -> "Drafts";
          case "trash" -> "Trash";
          case "junk" -> "Junk";
          default -> top;
        };
    return folder.getNameCount() == 1
        ? mapped
        : mapped + "/" + folder.subpath(1, folder.getNameCount()).toString();
  }

  /** Every LF not after a CR becomes CRLF, as IMAP carries lines. */
  static byte[] crlf(byte[] content) {
    var out = new java.io.ByteArrayOutputStream(content.length + content.length / 40);
    for (int i = 0; i < content.length; i++) {
      if (content[i] == '\n' && (i == 0 || content[i - 1] != '\r')) {
        out.write('\r');
      }
      out.write(content[i]);
    }
    return out.toByteArray();
  }
}
