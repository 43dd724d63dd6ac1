package org.mailrestore.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.mailrestore.backup.BackupManifest;
import org.mailrestore.backup.BackupWriter;
import org.mailrestore.backup.ItemLayout;
import org.mailrestore.backup.ItemSink;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.dav.CalendarObject;
import org.mailrestore.dav.ContactCard;
import org.mailrestore.dav.DavClient;
import org.mailrestore.imap.ImapAdministration;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.testkit.CyrusServer;
import org.mailrestore.testkit.RadicaleServer;
import org.mailrestore.testkit.ScratchSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Contacts and events into a real Radicale or Cyrus through the DAV target, next to vdirsyncer
 * uploading the same cards and calendar objects from a vdir, in the same run and into the same
 * server (each into homes of its own). mailrestore runs as a user runs it (a cold CLI restoring a
 * backup whose accounts hold only contacts and appointments); vdirsyncer syncs one pair per
 * collection.
 */
@Command(
    name = "dav",
    mixinStandardHelpOptions = true,
    description =
        "Contacts and events into Radicale or Cyrus through the DAV target, next to vdirsyncer"
            + " uploading the same vdir (items/s, and CPU per 1,000 items of each side and of the"
            + " server).")
final class DavCommand implements Callable<Integer> {

  @Option(names = "--contacts", defaultValue = "2000", description = "Contacts (default: 2000)")
  int contacts;

  @Option(names = "--events", defaultValue = "2000", description = "Events (default: 2000)")
  int events;

  @Option(names = "--accounts", defaultValue = "4", description = "Accounts (default: 4)")
  int accounts;

  @Option(names = "--heap", description = "The restore JVM's heap (-Xmx), e.g. 128m")
  String heap;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Option(
      names = "--without-peer",
      description = "Restore only, no vdirsyncer (a memory run of 100,000 contacts, say)")
  boolean withoutPeer;

  @Mixin ServerOptions mariadb;

  private static final Path VDIRSYNCER = Path.of("/usr/bin/vdirsyncer");
  private static final String DOMAIN = "dav.bench.example";

  @Option(
      names = "--server",
      defaultValue = "radicale",
      description = "radicale (default) or cyrus (Cyrus's httpd, its collections made over IMAP)")
  String server;

  @Override
  public Integer call() throws Exception {
    if (!Files.isExecutable(VDIRSYNCER)) {
      System.err.println("vdirsyncer is not installed: apt-get install vdirsyncer");
      return 2;
    }
    BenchServer target;
    switch (server) {
      case "radicale" -> {
        if (!RadicaleServer.installed()) {
          System.err.println("radicale is not installed: apt-get install radicale");
          return 2;
        }
        target = new RadicaleBench(RadicaleServer.get());
      }
      case "cyrus" -> {
        if (!CyrusServer.davInstalled()) {
          System.err.println(
              "Cyrus with its httpd is not here (as root): .ci/run installs cyrus-common,"
                  + " cyrus-imapd and cyrus-caldav");
          return 2;
        }
        target = new CyrusBench(CyrusServer.get());
      }
      default -> {
        System.err.println("--server is radicale or cyrus, not " + server);
        return 2;
      }
    }
    Path work = ScratchSpace.directory("mailrestore-bench-dav-");
    Path backup = work.resolve("backup");
    Path vdir = work.resolve("vdir");
    long items = write(backup, vdir);
    ColdCli cli = ColdCli.prepared();

    String run = Long.toHexString(System.nanoTime());
    Peer peer = withoutPeer ? null : vdirsyncer(target, run, vdir, work);

    // mailrestore: a cold CLI restoring the backup into homes of its own.
    ColdCli.Measured ours;
    double ourServer;
    try (BenchDatabase db =
        new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "dav", 1)) {
      List<String> arguments =
          new ArrayList<>(List.of("restore", "run", "--backup", backup.toString()));
      arguments.addAll(target.ourTarget(run));
      arguments.addAll(List.of("--jdbc-url", db.jdbcUrl(), "--db-user", mariadb.user));
      Map<String, String> env = new LinkedHashMap<>(target.admin());
      if (heap != null) {
        env.put("MAILRESTORE_JAVA_OPTS", "-Xmx" + heap);
      }
      long serverBefore = target.cpuTicks();
      ours = cli.run(arguments, env, work);
      ourServer = (target.cpuTicks() - serverBefore) / Processes.TICKS_PER_SECOND;
    }
    long ourItems = target.ourResources(run);
    if (ourItems != items || (peer != null && peer.items() != items)) {
      throw new IllegalStateException(
          target.name()
              + " holds "
              + ourItems
              + " resources from mailrestore and "
              + (peer == null ? "none" : peer.items())
              + " from vdirsyncer, not "
              + items);
    }

    Report report =
        new Report(
            "contacts and events into "
                + target.name()
                + (peer == null ? "" : ", next to vdirsyncer"));
    report.context(
        "items", contacts + " contacts and " + events + " events in " + accounts + " accounts");
    report.context("server", target.describe());
    report.context(
        "CPU per 1,000 items",
        String.format(
                Locale.ROOT,
                "mailrestore JVM %.3f s, its %s %.3f s",
                ours.cpuSeconds() * 1000 / items,
                target.name(),
                ourServer * 1000 / items)
            + (peer == null
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; vdirsyncer %.3f s, its %s %.3f s",
                    peer.cpuSeconds() * 1000 / items,
                    target.name(),
                    peer.serverSeconds() * 1000 / items)));
    report.context(
        "max RSS",
        String.format(
                Locale.ROOT,
                "mailrestore %d MiB%s",
                ours.maxRssKib() >> 10,
                heap == null ? "" : " (-Xmx" + heap + ")")
            + (peer == null
                ? ""
                : String.format(Locale.ROOT, ", vdirsyncer %d MiB", peer.maxRssKib() >> 10)));
    String name = "mailrestore restore run (" + cli.describe() + ")";
    if (peer == null) {
      report.add("dav", name, items, 0, ours.seconds());
    } else {
      Report.Row theirs =
          report.add("dav", "vdirsyncer sync (one pair per collection)", items, 0, peer.seconds());
      report.add("dav", name, items, 0, ours.seconds(), theirs);
    }
    report.print(System.out);
    if (json != null) {
      report.writeJson(json);
    }
    return 0;
  }

  /** What vdirsyncer took to upload the vdir. */
  private record Peer(
      double seconds, double serverSeconds, double cpuSeconds, long maxRssKib, long items) {}

  /** vdirsyncer uploading the vdir: one pair per collection, the collections made first. */
  private Peer vdirsyncer(BenchServer target, String run, Path vdir, Path work) throws Exception {
    StringBuilder config =
        new StringBuilder("[general]\nstatus_path = \"" + work.resolve("status") + "/\"\n");
    List<String> pairs = new ArrayList<>();
    for (int a = 0; a < accounts; a++) {
      PeerCollections peer = target.peer(run, a);
      for (String collection : List.of("contacts", "calendar")) {
        String pair = collection + a;
        pairs.add(pair);
        boolean cards = collection.equals("contacts");
        config.append(
            """

            [pair %1$s]
            a = "%1$s_local"
            b = "%1$s_remote"
            collections = null

            [storage %1$s_local]
            type = "filesystem"
            path = "%2$s/"
            fileext = "%3$s"

            [storage %1$s_remote]
            type = "%4$s"
            url = "%5$s"
            username = "%6$s"
            password = "%7$s"
            """
                .formatted(
                    pair,
                    vdir.resolve(account(a)).resolve(collection),
                    cards ? ".vcf" : ".ics",
                    cards ? "carddav" : "caldav",
                    cards ? peer.addressBook() : peer.calendar(),
                    peer.user(),
                    peer.password()));
      }
    }
    Path configFile = work.resolve("vdirsyncer.conf");
    Files.writeString(configFile, config, StandardCharsets.UTF_8);
    List<String> discover = new ArrayList<>(List.of(VDIRSYNCER.toString(), "-c"));
    discover.add(configFile.toString());
    discover.add("discover");
    Processes.run(discover, work);
    List<String> sync =
        new ArrayList<>(
            List.of(
                ColdCli.TIME.toString(),
                "-o",
                work.resolve("vdirsyncer.time").toString(),
                "-f",
                "%e %U %S %M",
                VDIRSYNCER.toString(),
                "-c",
                configFile.toString(),
                "sync"));
    sync.addAll(pairs);
    long serverBefore = target.cpuTicks();
    long t0 = System.nanoTime();
    Processes.run(sync, work);
    double peerSeconds = (System.nanoTime() - t0) / 1e9;
    double peerServer = (target.cpuTicks() - serverBefore) / Processes.TICKS_PER_SECOND;
    String[] t = Files.readString(work.resolve("vdirsyncer.time")).strip().split("\\s+");
    double peerCpu = Double.parseDouble(t[1]) + Double.parseDouble(t[2]);
    long peerItems = target.peerResources(run);

    return new Peer(peerSeconds, peerServer, peerCpu, Long.parseLong(t[3]), peerItems);
  }

  private String account(int index) {
    return "user" + index + "@" + DOMAIN;
  }

  /**
   * Writes a backup whose accounts hold only contacts (Contacts) and appointments (Calendar), and
   * the same cards and calendar objects as a vdir; returns how many items.
   */
  private long write(Path backup, Path vdir) throws IOException, CalendarObject.Refused {
    long count = 0;
    BackupManifest manifest =
        BackupManifest.current("dav.bench.example", Instant.now(), "the DAV benchmark");
    try (BackupWriter writer = BackupWriter.create(backup, manifest)) {
      writer.writeDomain(new Domain(DOMAIN, "active", Map.of()));
      for (int a = 0; a < accounts; a++) {
        Account account =
            new Account(
                UUID.nameUUIDFromBytes(account(a).getBytes(StandardCharsets.UTF_8)).toString(),
                account(a),
                DOMAIN,
                null,
                "active",
                false,
                List.of(),
                Map.of());
        Path cards = Files.createDirectories(vdir.resolve(account(a)).resolve("contacts"));
        Path calendar = Files.createDirectories(vdir.resolve(account(a)).resolve("calendar"));
        int id = SystemFolder.FIRST_USER_ID;
        try (ItemSink sink = writer.openAccount(account, ItemLayout.PACKED)) {
          for (int c = a; c < contacts; c += accounts) {
            String uid =
                UUID.nameUUIDFromBytes(("contact " + c).getBytes(StandardCharsets.UTF_8))
                    .toString();
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("firstName", "First" + c);
            fields.put("lastName", "Last" + c);
            fields.put("email", "person" + c + "@example.org");
            fields.put("mobilePhone", "+49 30 " + (1_000_000 + c));
            fields.put("company", "Company " + (c % 97));
            fields.put("homeCity", "City " + (c % 31));
            Revision state =
                Revision.builder(1, 1_700_000_000_000L)
                    .uuid(uid)
                    .folder(SystemFolder.CONTACTS.id())
                    .date(1_700_000_000_000L)
                    .attrs(fields)
                    .build();
            sink.write(new Item(id++, ItemType.CONTACT, List.of(state)));
            Files.writeString(
                cards.resolve(uid + ".vcf"),
                ContactCard.write(ContactCard.toCard(uid, fields)),
                StandardCharsets.UTF_8);
            count++;
          }
          for (int e = a; e < events; e += accounts) {
            String uid = "event-" + e + "@" + DOMAIN;
            byte[] content = invite(uid, e);
            BlobDigest digest = BlobDigest.ofContent(content);
            writer.writeBlob(digest, content, BlobCompression.NONE);
            Revision state =
                Revision.builder(1, 1_700_000_000_000L)
                    .uuid(UUID.randomUUID().toString())
                    .folder(SystemFolder.CALENDAR.id())
                    .date(1_700_000_000_000L)
                    .subject("Meeting " + e)
                    .blob(content.length, digest)
                    .build();
            sink.write(new Item(id++, ItemType.APPOINTMENT, List.of(state)));
            String text = CalendarObject.calendarText(content);
            Files.writeString(
                calendar.resolve(
                    UUID.nameUUIDFromBytes(uid.getBytes(StandardCharsets.UTF_8)) + ".ics"),
                CalendarObject.write(CalendarObject.resource(text, ItemType.APPOINTMENT, uid)),
                StandardCharsets.UTF_8);
            count++;
          }
        }
      }
    }
    return count;
  }

  /** An appointment's content as Zimbra keeps it: a message with its weekly meeting's iCalendar. */
  private static byte[] invite(String uid, int n) {
    String day = String.format(Locale.ROOT, "202501%02d", 1 + n % 28);
    String calendar =
        String.join(
            "\r\n",
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//mailrestore//benchmark//EN",
            "METHOD:PUBLISH",
            "BEGIN:VEVENT",
            "UID:" + uid,
            "DTSTAMP:20250101T000000Z",
            "DTSTART:" + day + "T090000Z",
            "DTEND:" + day + "T100000Z",
            "SUMMARY:Meeting " + n,
            "LOCATION:Room " + (n % 12),
            "RRULE:FREQ=WEEKLY;COUNT=" + (2 + n % 20),
            "ORGANIZER:mailto:organizer" + (n % 50) + "@example.org",
            "ATTENDEE;PARTSTAT=ACCEPTED:mailto:person" + n + "@example.org",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "DESCRIPTION:Meeting " + n,
            "TRIGGER:-PT10M",
            "END:VALARM",
            "END:VEVENT",
            "END:VCALENDAR",
            "");
    return ("Subject: Meeting "
            + n
            + "\r\nMIME-Version: 1.0\r\nContent-Type: text/calendar; charset=utf-8;"
            + " method=PUBLISH\r\n\r\n"
            + calendar)
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Where vdirsyncer writes one account's items: two collections and whose login. */
  record PeerCollections(URI addressBook, URI calendar, String user, String password) {}

  /** The server both sides write into, each into accounts or homes of its own. */
  private interface BenchServer {
    String name();

    String describe();

    /** Makes the peer's collections for one account (vdirsyncer makes none). */
    PeerCollections peer(String run, int account) throws Exception;

    /** The restore's {@code --target} options. */
    List<String> ourTarget(String run);

    /** The administrator, as the CLI takes it. */
    Map<String, String> admin();

    long peerResources(String run) throws Exception;

    long ourResources(String run) throws Exception;

    /** The server's CPU so far, in clock ticks. */
    long cpuTicks() throws IOException;
  }

  /** Radicale: each side under a root collection of its own, the administrator writing. */
  private final class RadicaleBench implements BenchServer {
    private final RadicaleServer radicale;
    private final DavClient admin =
        new DavClient(
            HttpClient.newHttpClient(), RadicaleServer.ADMIN, RadicaleServer.ADMIN_PASSWORD);

    RadicaleBench(RadicaleServer radicale) {
      this.radicale = radicale;
    }

    @Override
    public String name() {
      return "Radicale";
    }

    @Override
    public String describe() {
      return "Radicale (Debian), its own storage on " + radicale.collections();
    }

    @Override
    public PeerCollections peer(String run, int a) throws IOException {
      URI root = URI.create(radicale.url() + "v" + run + "/");
      admin.makeCollection(root);
      URI home = root.resolve(account(a) + "/");
      admin.makeCollection(home);
      admin.makeAddressBook(home.resolve("contacts/"), "Contacts");
      admin.makeCalendar(home.resolve("calendar/"), "Calendar", "VEVENT", null);
      return new PeerCollections(
          home.resolve("contacts/"),
          home.resolve("calendar/"),
          RadicaleServer.ADMIN,
          RadicaleServer.ADMIN_PASSWORD);
    }

    @Override
    public List<String> ourTarget(String run) {
      return List.of(
          "--target",
          "dav://127.0.0.1:" + radicale.port() + "/",
          "--dav-home",
          "m" + run + "/{address}/");
    }

    @Override
    public Map<String, String> admin() {
      return Map.of(
          "MAILRESTORE_DAV_USER", RadicaleServer.ADMIN,
          "MAILRESTORE_DAV_PASSWORD", RadicaleServer.ADMIN_PASSWORD);
    }

    @Override
    public long peerResources(String run) throws IOException {
      return files("v" + run);
    }

    @Override
    public long ourResources(String run) throws IOException {
      return files("m" + run);
    }

    /** The cards and calendar objects under one side's homes, in Radicale's own storage. */
    private long files(String root) throws IOException {
      try (Stream<Path> files = Files.walk(radicale.collections().resolve(root))) {
        return files
            .filter(f -> f.toString().endsWith(".vcf") || f.toString().endsWith(".ics"))
            .filter(f -> !f.toString().contains("/.Radicale"))
            .count();
      }
    }

    @Override
    public long cpuTicks() {
      return Processes.cpuTicks(radicale.pid(), false);
    }
  }

  /**
   * Cyrus: vdirsyncer logs in as each of its users and syncs into their default address book and
   * calendar (made by Cyrus at their first login); the restore writes its accounts as Cyrus's admin
   * (decision 0051). The server's CPU is its {@code master}'s and every {@code httpd} and {@code
   * imapd} it forked.
   */
  private final class CyrusBench implements BenchServer {
    private final CyrusServer cyrus;

    CyrusBench(CyrusServer cyrus) {
      this.cyrus = cyrus;
    }

    @Override
    public String name() {
      return "Cyrus";
    }

    @Override
    public String describe() {
      return "Cyrus 3.6 (Debian's cyrus-imapd and cyrus-caldav), " + cyrus;
    }

    private String peerAccount(String run, int a) {
      return "user" + a + "@p" + run + "." + DOMAIN;
    }

    @Override
    public PeerCollections peer(String run, int a) throws IOException {
      String user = peerAccount(run, a);
      cyrus.addUser(user);
      String password = "pw-" + UUID.randomUUID();
      cyrus.setPassword(user, password);
      URI root = URI.create(cyrus.davUrl());
      return new PeerCollections(
          root.resolve("addressbooks/user/" + user + "/Default/"),
          root.resolve("calendars/user/" + user + "/Default/"),
          user,
          password);
    }

    @Override
    public List<String> ourTarget(String run) {
      return List.of(
          "--target",
          "dav" + cyrus.davUrl().substring("http".length()),
          "--dav-cyrus-imap",
          cyrus.url());
    }

    @Override
    public Map<String, String> admin() {
      return Map.of(
          "MAILRESTORE_DAV_USER", CyrusServer.ADMIN,
          "MAILRESTORE_DAV_PASSWORD", CyrusServer.ADMIN_PASSWORD);
    }

    @Override
    public long peerResources(String run) throws IOException {
      List<String> users = new ArrayList<>();
      for (int a = 0; a < accounts; a++) {
        users.add(peerAccount(run, a));
      }
      return messages(users);
    }

    @Override
    public long ourResources(String run) throws IOException {
      List<String> users = new ArrayList<>();
      for (int a = 0; a < accounts; a++) {
        users.add(account(a));
      }
      return messages(users);
    }

    /** The resources of these users' calendars and address books: messages in Cyrus's mailboxes. */
    private long messages(List<String> users) throws IOException {
      long n = 0;
      try (ImapAdministration imap =
          ImapAdministration.open(
              cyrus.url(), CyrusServer.ADMIN, CyrusServer.ADMIN_PASSWORD, null, null)) {
        String sep = imap.separator();
        for (String user : users) {
          int at = user.indexOf('@');
          String local = user.substring(0, at);
          String domain = user.substring(at);
          for (String tree : List.of("#calendars", "#addressbooks")) {
            for (String box : imap.list("user" + sep + local + sep + tree + sep + "*" + domain)) {
              imap.setAcl(box, CyrusServer.ADMIN, "lr"); // STATUS needs the read right
              n += imap.messages(box);
            }
          }
        }
      }
      return n;
    }

    @Override
    public long cpuTicks() throws IOException {
      return Processes.cpuTicksOfTree(cyrus.pid());
    }
  }
}
