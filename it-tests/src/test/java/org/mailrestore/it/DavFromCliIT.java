package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.sql.Sql;
import org.mailrestore.testkit.CyrusServer;
import org.mailrestore.testkit.RadicaleServer;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.zimbra.ArchiveBuilder;

/**
 * The CLI as an administrator types it: one {@code restore run} with {@code --target imap://...}
 * and {@code --target dav://...} puts the mail into Dovecot and the contacts, appointments and
 * tasks into Radicale; {@code verify} with the same flags finds no difference (each card's fields
 * by the mapping, each calendar object as made from its item's content); a second run adds nothing
 * to either server.
 */
class DavFromCliIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  void oneCommandPutsTheMailIntoDovecotAndTheRestIntoRadicale() throws Exception {
    assumeTrue(RadicaleServer.installed(), "radicale is not installed: .ci/run installs it");
    ImapServers.Server imap = ImapServers.DOVECOT.start();
    RadicaleServer radicale = RadicaleServer.get();
    Path backup = generate(3, 200);
    List<String> flags = new ArrayList<>(List.of("--backup", backup.toString()));
    flags.addAll(imap.targetArgs());
    flags.addAll(List.of("--target", "dav://127.0.0.1:" + radicale.port() + "/"));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env = new HashMap<>(imap.environment());
    env.putAll(davAdmin());

    String first = run(env, "restore run", flags);
    assertThat(first).contains("COMPLETED").contains(" 0 failed");
    long resources = resources(radicale);
    assertThat(resources).as("contacts, appointments and tasks on Radicale").isPositive();
    assertThat(run(env, "verify", flags)).contains("no differences");

    String second = run(env, "restore run", flags);
    assertThat(second).contains("COMPLETED").contains(" 0 restored");
    assertThat(resources(radicale)).as("a second run adds nothing").isEqualTo(resources);

    // export reads the DAV server back: a file for each card and calendar object it holds.
    Path vdir = dir.resolve("vdir");
    List<String> export = new ArrayList<>(List.of("export", "vdir", "--out", vdir.toString()));
    export.addAll(flags.subList(2, flags.size())); // the targets and the database, not --backup
    List<String> accounts = accounts(backup);
    accounts.forEach(a -> export.addAll(List.of("--account", a)));
    run(env, export.get(0) + " " + export.get(1), export.subList(2, export.size()));
    long exported;
    try (Stream<Path> files = Files.walk(vdir)) {
      exported =
          files.filter(f -> f.toString().endsWith(".vcf") || f.toString().endsWith(".ics")).count();
    }
    long held = 0;
    for (String account : accounts) {
      held += onServer(radicale, account);
    }
    assertThat(exported).as("exported from Radicale").isEqualTo(held).isPositive();

    // verify reads the DAV server: a card or event deleted there is a difference.
    Path gone;
    try (Stream<Path> files = Files.walk(radicale.collections())) {
      gone = files.filter(f -> f.toString().endsWith(".ics")).findFirst().orElseThrow();
    }
    String path = radicale.collections().relativize(gone).toString();
    HttpResponse<String> deleted =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(radicale.url() + path))
                    .header(
                        "Authorization", basic(RadicaleServer.ADMIN, RadicaleServer.ADMIN_PASSWORD))
                    .DELETE()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).as(deleted.body()).isBetween(200, 299);
    List<String> args = new ArrayList<>(List.of("verify"));
    args.addAll(flags);
    CliProcess verify = CliProcess.start(own.database().server().password(), null, env, args);
    assertThat(verify.waitFor(300)).as(verify.output()).isEqualTo(1);
    assertThat(verify.output()).contains("2 differences").contains("which does not exist");
  }

  /**
   * The same into Cyrus, mail and the rest: {@code --target imap://...} and {@code --target
   * dav://.../dav/ --dav-cyrus-imap imap://...} (decision 0051). Each user then reads their own
   * calendars and address books as a client does, with their own login, and finds every resource
   * the target recorded; verify finds no difference; a second run adds nothing.
   */
  @Test
  void oneCommandPutsTheMailAndTheRestIntoCyrus() throws Exception {
    assumeTrue(CyrusServer.davInstalled(), "Cyrus's httpd is not installed: .ci/run installs it");
    ImapServers.Server imap = ImapServers.CYRUS.start();
    CyrusServer cyrus = CyrusServer.get();
    Path backup = generate(2, 150);
    List<String> accounts = accounts(backup);
    imap.prepare(accounts);
    List<String> flags = new ArrayList<>(List.of("--backup", backup.toString()));
    flags.addAll(imap.targetArgs());
    flags.addAll(cyrusDav(cyrus));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env = new HashMap<>(imap.environment());
    env.put("MAILRESTORE_DAV_USER", CyrusServer.ADMIN);
    env.put("MAILRESTORE_DAV_PASSWORD", CyrusServer.ADMIN_PASSWORD);

    String first = run(env, "restore run", flags);
    assertThat(first).contains("COMPLETED").contains(" 0 failed");
    assertThat(recorded()).as("contacts, appointments and tasks recorded").isPositive();
    Map<String, Long> held = new HashMap<>();
    for (String account : accounts) {
      String password = "pw-" + UUID.randomUUID();
      cyrus.setPassword(account, password);
      long seen = asTheUser(cyrus, account, password);
      assertThat(seen)
          .as("what %s reads in their own calendars and address books", account)
          .isEqualTo(
              count(
                  "SELECT COUNT(*) FROM dav_resource r JOIN dav_account a ON a.id = r.account_id"
                      + " WHERE a.login = '"
                      + account
                      + "'"));
      held.put(account, seen);
    }
    assertThat(run(env, "verify", flags)).contains("no differences");

    String second = run(env, "restore run", flags);
    assertThat(second).contains("COMPLETED").contains(" 0 restored");
    for (String account : accounts) {
      assertThat(asTheUser(cyrus, account, null))
          .as("a second run adds nothing")
          .isEqualTo(held.get(account));
    }
  }

  private final Map<String, String> cyrusPasswords = new HashMap<>();

  /** One client for every count: a kill test counts often, and a new client each time is slow. */
  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * The cards and calendar objects a Cyrus user finds in their own homes, read as that user (a
   * {@code PROPFIND} of each collection under {@code /dav/calendars/user/<them>/} and {@code
   * /dav/addressbooks/user/<them>/}).
   */
  private long asTheUser(CyrusServer cyrus, String user, String password) throws Exception {
    if (password != null) {
      cyrusPasswords.put(user, password);
    }
    String auth = basic(user, cyrusPasswords.get(user));
    long count = 0;
    for (String tree : List.of("calendars", "addressbooks")) {
      URI home = URI.create(cyrus.davUrl() + tree + "/user/" + user + "/");
      for (String href : propfind(http, auth, home)) {
        URI collection = home.resolve(href);
        if (!href.endsWith("/") || collection.getPath().equals(home.getPath())) {
          continue;
        }
        for (String member : propfind(http, auth, collection)) {
          if (member.endsWith(".ics") || member.endsWith(".vcf")) {
            count++;
          }
        }
      }
    }
    return count;
  }

  private static List<String> propfind(HttpClient http, String auth, URI uri) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(uri)
                .header("Authorization", auth)
                .header("Depth", "1")
                .header("Content-Type", "application/xml")
                .method(
                    "PROPFIND",
                    HttpRequest.BodyPublishers.ofString(
                        "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
                            + "<D:resourcetype/></D:prop></D:propfind>"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    List<String> hrefs = new ArrayList<>();
    if (r.statusCode() == 404) {
      return hrefs; // a home not made yet
    }
    assertThat(r.statusCode()).as("PROPFIND %s: %s", uri, r.body()).isEqualTo(207);
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("<D:href>([^<]*)</D:href>").matcher(r.body());
    while (m.find()) {
      hrefs.add(m.group(1));
    }
    return hrefs;
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A Zimbra account archive for each user (as {@code export zimbra-tgz} writes them, and Zimbra
   * itself), with contacts in their metadata and appointments and tasks with their iCalendar,
   * restored in one operation into Dovecot and Radicale, and verified against the archives.
   */
  @Test
  void zimbraArchivesGoToDovecotAndRadicaleInOneOperation() throws Exception {
    assumeTrue(RadicaleServer.installed(), "radicale is not installed: .ci/run installs it");
    ImapServers.Server imap = ImapServers.DOVECOT.start();
    RadicaleServer radicale = RadicaleServer.get();
    Path backup = generate(2, 150);
    List<String> accounts = accounts(backup);
    Path archives = dir.resolve("archives");
    try (TestDatabase mailstore = TestMariaDb.createDatabase()) {
      Cli.Result restored =
          Cli.run(
              Cli.args(
                  List.of("restore", "run", "--backup", backup.toString()),
                  Cli.store(mailstore, dir.resolve("volume"))));
      assertThat(restored.exitCode()).as(restored.out() + restored.err()).isZero();
      List<String> export =
          new ArrayList<>(List.of("export", "zimbra-tgz", "--out", archives.toString()));
      accounts.forEach(a -> export.addAll(List.of("--account", a)));
      Cli.Result exported = Cli.run(Cli.args(export, Cli.database(mailstore)));
      assertThat(exported.exitCode()).as(exported.out() + exported.err()).isZero();
    }
    // Accounts of their own on the servers this JVM's other tests write to: an archive's file
    // name is its account's address.
    String domain = "z" + Long.toHexString(System.nanoTime()) + ".example";
    for (String account : accounts) {
      Path archive = archives.resolve(account + ".tgz");
      Files.move(archive, archives.resolve(account.replaceAll("@.*", "@" + domain) + ".tgz"));
    }

    List<String> flags = new ArrayList<>(List.of("--zimbra-tgz", archives.toString()));
    flags.addAll(imap.targetArgs());
    flags.addAll(List.of("--target", "dav://127.0.0.1:" + radicale.port() + "/"));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env = new HashMap<>(imap.environment());
    env.putAll(davAdmin());
    long before = resources(radicale);
    String first = run(env, "restore run", flags);
    assertThat(first).contains("COMPLETED").contains(" 0 failed");
    assertThat(resources(radicale)).as("the archives' contacts and events").isGreaterThan(before);
    assertThat(run(env, "verify", flags)).contains("no differences");
  }

  /**
   * A Zimbra archive whose appointment has no content, its invites kept only in its metadata (as
   * Zimbra keeps some): restored into Radicale from them, the series with its time zone, attendee,
   * alarm and moved instance as the server stores it; verify finds no difference; a second run adds
   * nothing (decision 0054).
   */
  @Test
  void anArchivesAppointmentKeptOnlyInItsMetadataReachesRadicale() throws Exception {
    assumeTrue(RadicaleServer.installed(), "radicale is not installed: .ci/run installs it");
    RadicaleServer radicale = RadicaleServer.get();
    String account = "inv" + Long.toHexString(System.nanoTime()) + "@zimbra.example";
    Path archives = archive(account, false);
    List<String> flags = new ArrayList<>(List.of("--zimbra-tgz", archives.toString()));
    flags.addAll(List.of("--target", "dav://127.0.0.1:" + radicale.port() + "/"));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env = davAdmin();
    assertThat(run(env, "restore run", flags)).contains("COMPLETED").contains(" 0 failed");
    List<Path> held;
    try (Stream<Path> files = Files.walk(radicale.collections().resolve(account))) {
      held =
          files
              .filter(f -> f.toString().endsWith(".ics"))
              .filter(f -> !f.toString().contains("/.Radicale"))
              .toList();
    }
    assertThat(held).as("the appointment, as Radicale stores it").hasSize(1);
    assertThat(Files.readString(held.get(0)))
        .contains("BEGIN:VTIMEZONE")
        .contains("DTSTART;TZID=Europe/Paris:20261202T090000")
        .contains("RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=WE")
        .contains("RECURRENCE-ID;TZID=Europe/Paris:20261209T090000")
        .contains("SUMMARY:Planning (moved)")
        .contains("mailto:eve@example.org")
        .contains("TRIGGER:-PT10M");
    assertThat(run(env, "verify", flags)).contains("no differences");
    assertThat(run(env, "restore run", flags)).contains("COMPLETED").contains(" 0 restored");
    assertThat(onServer(radicale, account)).as("a second run adds nothing").isEqualTo(1);
  }

  /**
   * The same archive into Cyrus, with a contact whose picture is in its content: restored from the
   * CLI with none failed and none of the picture left out; verify (which reads each card back and
   * compares its fields, the picture among them) finds no difference (decisions 0054, 0056).
   */
  @Test
  void anArchivesPictureAndMetadataOnlyAppointmentReachCyrus() throws Exception {
    assumeTrue(CyrusServer.davInstalled(), "Cyrus's httpd is not installed: .ci/run installs it");
    CyrusServer cyrus = CyrusServer.get();
    String account = "pic" + Long.toHexString(System.nanoTime()) + "@zimbra.example";
    Path archives = archive(account, true);
    List<String> flags = new ArrayList<>(List.of("--zimbra-tgz", archives.toString()));
    flags.addAll(cyrusDav(cyrus));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env =
        Map.of(
            "MAILRESTORE_DAV_USER",
            CyrusServer.ADMIN,
            "MAILRESTORE_DAV_PASSWORD",
            CyrusServer.ADMIN_PASSWORD);
    String restored = run(env, "restore run", flags);
    assertThat(restored)
        .contains("COMPLETED")
        .contains("2 restored")
        .contains(" 0 failed")
        .doesNotContain("contact pictures");
    assertThat(run(env, "verify", flags)).contains("no differences");
  }

  /**
   * A Zimbra account archive of {@code account} (as Zimbra writes them): an appointment whose
   * invites are only in its metadata (a weekly series in Paris time with a moved instance, an
   * attendee and an alarm), and, when asked, a contact with a picture in its content.
   */
  private Path archive(String account, boolean withPicture) throws IOException {
    String zone = "TZID=Europe/Paris:";
    Map<String, Object> paris =
        Map.of(
            "#0",
            Map.of(
                "tzid", "Europe/Paris",
                "so", 3_600_000L,
                "do", 7_200_000L,
                "hd", "true",
                "d2ss", "16010101T030000",
                "d2sr", "FREQ=YEARLY;WKST=MO;INTERVAL=1;BYMONTH=10;BYDAY=-1SU",
                "s2ds", "16010101T020000",
                "s2dr", "FREQ=YEARLY;WKST=MO;INTERVAL=1;BYMONTH=3;BYDAY=-1SU"));
    Map<String, Object> series = new HashMap<>();
    series.put("u", "planning-uid");
    series.put("n", "Planning");
    series.put("st", zone + "20261202T090000");
    series.put("et", zone + "20261202T100000");
    series.put("tzm", paris);
    series.put("numAt", "1");
    series.put("at0", Map.of("a", "eve@example.org", "ptst", "AC", "r", "REQ"));
    series.put("numAl", 1L);
    series.put("al0", Map.of("ac", "d", "tt", "r", "tr", "-PT10M"));
    series.put(
        "recurrence",
        Map.of(
            "t",
            4L,
            "add",
            Map.of("nr", 1L, "r0", Map.of("t", 2L, "recur", "FREQ=WEEKLY;COUNT=8;BYDAY=WE"))));
    Map<String, Object> moved =
        Map.of(
            "u",
            "planning-uid",
            "n",
            "Planning (moved)",
            "st",
            zone + "20261209T140000",
            "et",
            zone + "20261209T150000",
            "rid",
            Map.of("dt", zone + "20261209T090000", "r", 1L),
            "tzm",
            paris);
    Map<String, Object> appointment = ArchiveBuilder.item(500, 11, "/Calendar");
    appointment.put("subject", "Planning");
    appointment.put(
        "metadata",
        ArchiveBuilder.bencode(
            Map.of("u", "planning-uid", "nc", 2L, "inv0", series, "inv1", moved)));
    Path archives = dir.resolve("archives");
    Files.createDirectories(archives);
    ArchiveBuilder b =
        new ArchiveBuilder()
            .folder(10, "/Calendar", Map.of("vt", 11L, "v", 10L))
            .meta("Calendar/0000000500-Planning.appt.meta", appointment);
    if (withPicture) {
      b.folder(7, "/Contacts", Map.of("vt", 6L, "v", 10L))
          .contactWithPicture(
              600,
              "Contacts/0000000600-Pia",
              Map.of("firstName", "Pia", "email", "pia@example.org"),
              Base64.getDecoder().decode(PNG));
    }
    b.write(archives.resolve(account + ".tgz"));

    return archives;
  }

  /** A picture of one pixel. */
  private static final String PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

  /**
   * The mailstore's contacts, appointments and tasks exported as a vdir ({@code export vdir}), and
   * that vdir restored into another mailstore ({@code --vdir}): verify against the vdir finds no
   * difference, and a second run adds nothing.
   */
  @Test
  void aVdirExportedFromTheMailstoreRestoresIntoAnother() throws Exception {
    Path backup = generate(2, 300);
    List<String> accounts = accounts(backup);
    Path vdir = dir.resolve("vdir");
    try (TestDatabase first = TestMariaDb.createDatabase();
        TestDatabase second = TestMariaDb.createDatabase()) {
      ok(
          Cli.run(
              Cli.args(
                  List.of("restore", "run", "--backup", backup.toString()),
                  Cli.store(first, dir.resolve("volume-1")))));
      List<String> export = new ArrayList<>(List.of("export", "vdir", "--out", vdir.toString()));
      accounts.forEach(a -> export.addAll(List.of("--account", a)));
      ok(Cli.run(Cli.args(export, Cli.database(first))));
      try (Stream<Path> files = Files.walk(vdir)) {
        assertThat(files.filter(f -> f.toString().endsWith(".vcf")).count()).isPositive();
      }

      List<String> restore = List.of("restore", "run", "--vdir", vdir.toString());
      String restored = ok(Cli.run(Cli.args(restore, Cli.store(second, dir.resolve("volume-2")))));
      assertThat(restored).contains("COMPLETED").contains(" 0 failed");
      String verified =
          ok(
              Cli.run(
                  Cli.args(
                      List.of("verify", "--vdir", vdir.toString()),
                      Cli.store(second, dir.resolve("volume-2")))));
      assertThat(verified).contains("no differences");
      String again = ok(Cli.run(Cli.args(restore, Cli.store(second, dir.resolve("volume-2")))));
      assertThat(again).contains("COMPLETED").contains(" 0 restored");
    }
  }

  /** A generated backup of one domain, its accounts' shares left out. */
  private Path generate(int accounts, int items) throws IOException {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withSeed(UUID.randomUUID().getMostSignificantBits())
            .withDomains(1)
            .withAccounts(accounts)
            .withItemsPerAccount(items)
            .withShares(false),
        backup);
    return backup;
  }

  /** The tests' Radicale administrator, as the CLI takes it: from the environment. */
  private static Map<String, String> davAdmin() {
    return Map.of(
        "MAILRESTORE_DAV_USER", RadicaleServer.ADMIN,
        "MAILRESTORE_DAV_PASSWORD", RadicaleServer.ADMIN_PASSWORD);
  }

  private static String ok(Cli.Result r) {
    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    return r.out();
  }

  private static List<String> accounts(Path backup) throws IOException {
    List<String> accounts = new ArrayList<>();
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        if (reader.account(id) instanceof Parsed.Ok<Account> ok) {
          accounts.add(ok.value().name());
        }
      }
    }
    return accounts;
  }

  /**
   * The DAV target alone, killed with SIGKILL five times while it writes, resumed after each: every
   * contact, appointment and task is on the server once, recorded once, and verify finds no
   * difference. Its users' homes are under a directory of this test's own ({@code --dav-home}).
   */
  @Test
  void killedFiveTimesThenResumedLosesAndDoublesNothing() throws Exception {
    assumeTrue(RadicaleServer.installed(), "radicale is not installed: .ci/run installs it");
    RadicaleServer radicale = RadicaleServer.get();
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 3000, 39);
    String prefix = "k" + Long.toHexString(System.nanoTime());
    List<String> flags = new ArrayList<>(List.of("--backup", backup.toString()));
    flags.addAll(
        List.of(
            "--target",
            "dav://127.0.0.1:" + radicale.port() + "/",
            "--dav-home",
            prefix + "/{address}/"));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env = davAdmin();

    killFiveTimesThenResume(flags, env, () -> onServer(radicale, prefix));
  }

  /**
   * The same into Cyrus's DAV alone ({@code --dav-cyrus-imap}): what the server holds is counted as
   * its users read it, each logged in as themselves.
   */
  @Test
  void killedFiveTimesIntoCyrusThenResumedLosesAndDoublesNothing() throws Exception {
    assumeTrue(CyrusServer.davInstalled(), "Cyrus's httpd is not installed: .ci/run installs it");
    CyrusServer cyrus = CyrusServer.get();
    // Twice the Radicale test's items: Cyrus writes dozens of resources while the test counts
    // them once, and five kills must still fall before the restore's end.
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 6000, 39);
    // Cyrus users of this test's own: generated backups name their accounts alike, and the other
    // tests of this JVM write into the same Cyrus.
    String prefix = "k" + Long.toHexString(System.nanoTime()) + "-";
    List<String> users = new ArrayList<>();
    for (String account : accounts(backup)) {
      String user = prefix + account;
      users.add(user);
      // The users' mail accounts are there, as where the mail was restored first: Cyrus answers
      // a user without one who logs in to its httpd with a 500.
      cyrus.addUser(user);
      String password = "pw-" + UUID.randomUUID();
      cyrus.setPassword(user, password);
      cyrusPasswords.put(user, password);
    }
    List<String> flags = new ArrayList<>(List.of("--backup", backup.toString()));
    flags.addAll(cyrusDav(cyrus));
    flags.addAll(List.of("--dav-home", prefix + "{address}"));
    flags.addAll(Cli.database(own.database()));
    Map<String, String> env =
        Map.of(
            "MAILRESTORE_DAV_USER", CyrusServer.ADMIN,
            "MAILRESTORE_DAV_PASSWORD", CyrusServer.ADMIN_PASSWORD);
    killFiveTimesThenResume(
        flags,
        env,
        () -> {
          long n = 0;
          for (String user : users) {
            n += asTheUser(cyrus, user, null);
          }
          return n;
        });
  }

  /** What a server holds of the restore, counted outside the restore. */
  private interface ServerCount {
    long get() throws Exception;
  }

  /**
   * Runs the restore, kills it with SIGKILL at five random points (counted on the server, so they
   * land inside clusters), resumes it: verify finds no difference, and the server holds exactly the
   * resources recorded, each once.
   */
  private void killFiveTimesThenResume(
      List<String> flags, Map<String, String> env, ServerCount onServer) throws Exception {
    long seed = Long.getLong("mailrestore.it.kill-seed", System.nanoTime());
    SplittableRandom random = new SplittableRandom(seed);
    String operation = null;
    int kills = 0;
    // Kill points count what the server holds: a cluster's resources are written one by one and
    // recorded at once, so a kill lands in the middle of a cluster, which the next run finds in
    // doubt. Each falls 1-10 resources after the last: a fast server (Cyrus) writes dozens more
    // between the count that reaches it and the kill, and the five must come before the end.
    long killAt = 1L + random.nextInt(10);
    String ended = "";
    while (kills < 5) {
      List<String> args = new ArrayList<>(List.of("restore", "run", "--lease-seconds", "3"));
      args.addAll(flags);
      if (operation != null) {
        args.addAll(List.of("--operation", operation));
      }
      CliProcess child = CliProcess.start(own.database().server().password(), null, env, args);
      operation = child.operation();
      long threshold = killAt;
      if (!awaitOnServer(child, onServer, n -> n >= threshold)) {
        ended = child.output();
        break; // it finished before this kill point
      }
      child.kill();
      kills++;
      long held = onServer.get();
      System.out.printf("kill %d: at %d wanted, %d held%n", kills, threshold, held);
      killAt = held + 1 + random.nextInt(10);
    }
    assertThat(kills)
        .as("kills (seed %d); the run that ended before its kill point printed:%n%s", seed, ended)
        .isEqualTo(5);
    List<String> resume = new ArrayList<>(flags);
    resume.addAll(List.of("--operation", operation, "--lease-seconds", "3"));
    assertThat(run(env, "restore run", resume)).contains("COMPLETED").contains(" 0 failed");
    assertThat(run(env, "verify", flags)).contains("no differences");
    long held = onServer.get();
    System.out.printf("after the resume: %d held%n", held);
    String context = "after 5 kills (seed " + seed + ")";
    assertThat(held).as("on the server, " + context).isEqualTo(recorded()).isPositive();
    assertThat(count("SELECT COUNT(DISTINCT account_id, href) FROM dav_resource"))
        .as("each resource recorded once, " + context)
        .isEqualTo(recorded());
  }

  private long recorded() throws Exception {
    try {
      return count("SELECT COUNT(*) FROM dav_resource");
    } catch (java.sql.SQLException e) {
      return 0; // the target has not made its tables yet
    }
  }

  private long count(String sql) throws Exception {
    return Sql.queryOne(own.database().dataSource(), sql, rs -> rs.getLong(1)).orElse(0L);
  }

  private static boolean awaitOnServer(
      CliProcess process, ServerCount onServer, LongPredicate until) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (process.isAlive()) {
      if (until.test(onServer.get())) {
        return true;
      }
      assertThat(System.nanoTime())
          .as("no progress in 3 minutes:%n%s", process.output())
          .isLessThan(deadline);
      Thread.sleep(20);
    }
    return false;
  }

  /** The cards and calendar objects under the homes of one test. */
  private static long onServer(RadicaleServer radicale, String prefix) throws IOException {
    Path root = radicale.collections().resolve(prefix);
    if (!Files.exists(root)) {
      return 0;
    }
    for (int attempt = 1; ; attempt++) {
      try (Stream<Path> files = Files.walk(root)) {
        return files
            .filter(f -> f.toString().endsWith(".vcf") || f.toString().endsWith(".ics"))
            .filter(f -> !f.toString().contains("/.Radicale"))
            .count();
      } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
        if (attempt == 10) {
          throw e; // Radicale's temporary files come and go while it writes: walk again
        }
      }
    }
  }

  /** The cards and calendar objects Radicale keeps, in its own storage. */
  private static long resources(RadicaleServer radicale) throws IOException {
    try (Stream<Path> files = Files.walk(radicale.collections())) {
      return files
          .filter(f -> f.toString().endsWith(".vcf") || f.toString().endsWith(".ics"))
          .filter(f -> !f.toString().contains("/.Radicale"))
          .count();
    }
  }

  private String run(Map<String, String> env, String command, List<String> flags) throws Exception {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(flags);
    CliProcess process = CliProcess.start(own.database().server().password(), null, env, args);
    int exit = process.waitFor(300);
    System.out.println(process.output());
    assertThat(exit).as(process.output()).isZero();
    return process.output();
  }

  /** The DAV target's flags into Cyrus: its DAV root, and its IMAP for the collections. */
  private static List<String> cyrusDav(CyrusServer cyrus) {
    return List.of(
        "--target",
        "dav" + cyrus.davUrl().substring("http".length()),
        "--dav-cyrus-imap",
        cyrus.url());
  }
}
