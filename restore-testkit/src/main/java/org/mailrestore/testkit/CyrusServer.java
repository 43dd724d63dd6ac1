package org.mailrestore.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A Cyrus IMAP of the tests' own: Debian's {@code cyrus-common} (master, tools) with the {@code
 * imapd} of {@code cyrus-imapd}, which cannot be installed beside {@code dovecot-imapd} as a
 * package, so {@code .ci/run} unpacks it (see {@link #IMAPD_CANDIDATES}). Its own configuration,
 * spool and loopback port; an admin in a sasldb who is also a proxy server, so it can log in as any
 * user with SASL PLAIN and an authorization identity; virtual domains; {@code /} as separator.
 * Never the package's system service. Started once per test JVM.
 */
public final class CyrusServer {

  public static final String ADMIN = "mailrestore-admin";
  public static final String ADMIN_PASSWORD = "admin-" + UUID.randomUUID();

  /** Where {@code imapd} is looked for: the package's place, then where .ci/run unpacks it. */
  static final List<Path> IMAPD_CANDIDATES =
      List.of(
          Path.of("/usr/lib/cyrus/bin/imapd"),
          Path.of("/opt/mailrestore-cyrus/usr/lib/cyrus/bin/imapd"));

  private static final Path MASTER = Path.of("/usr/lib/cyrus/bin/master");

  /** CalDAV and CardDAV: Debian's {@code cyrus-caldav}, which conflicts with nothing. */
  private static final Path HTTPD = Path.of("/usr/lib/cyrus/bin/httpd");

  private static final Path CTL_CYRUSDB = Path.of("/usr/lib/cyrus/bin/ctl_cyrusdb");
  private static final Path SASLPASSWD = Path.of("/usr/sbin/saslpasswd2");

  private static CyrusServer instance;
  private static CyrusServer scheduling;

  private final Path dir;
  private final int port;
  private final int httpPort;

  private CyrusServer(Path dir, int port, int httpPort) {
    this.dir = dir;
    this.port = port;
    this.httpPort = httpPort;
  }

  /** Whether Cyrus's CalDAV and CardDAV can be run here too ({@code cyrus-caldav}). */
  public static boolean davInstalled() {
    return installed() && Files.isExecutable(HTTPD);
  }

  /**
   * The DAV root ({@code http://127.0.0.1:<port>/dav/}) of the instance's {@code httpd}.
   *
   * @throws IllegalStateException where {@code cyrus-caldav} is not installed
   */
  public String davUrl() {
    if (httpPort <= 0) {
      throw new IllegalStateException("Cyrus's httpd (Debian's cyrus-caldav) is not installed");
    }
    return "http://127.0.0.1:" + httpPort + "/dav/";
  }

  /**
   * Whether Cyrus can be run here: its binaries, and root (master drops to the {@code cyrus} user,
   * which owns the spool).
   */
  public static boolean installed() {
    return imapd().isPresent()
        && Files.isExecutable(MASTER)
        && Files.isExecutable(CTL_CYRUSDB)
        && Files.isExecutable(SASLPASSWD)
        && "root".equals(System.getProperty("user.name"));
  }

  static Optional<Path> imapd() {
    return IMAPD_CANDIDATES.stream().filter(Files::isExecutable).findFirst();
  }

  public static synchronized CyrusServer get() throws IOException {
    if (instance == null) {
      instance = start(false);
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
    }
    return instance;
  }

  /**
   * A second instance, with CalDAV scheduling on ({@code caldav_allowscheduling: on}): what an
   * administrator's Cyrus does unless told otherwise, and what a restore must not write meetings
   * into. Started once per test JVM, when a test asks for it.
   */
  public static synchronized CyrusServer scheduling() throws IOException {
    if (scheduling == null) {
      scheduling = start(true);
      Runtime.getRuntime().addShutdownHook(new Thread(scheduling::stop));
    }
    return scheduling;
  }

  public String url() {
    return "imap://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /**
   * Creates the user's INBOX as the admin ({@code CREATE user/<name>}); an existing one is kept.
   */
  public void addUser(String login) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      var in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      OutputStream out = socket.getOutputStream();
      in.readLine(); // greeting
      command(in, out, "a LOGIN " + ADMIN + " " + ADMIN_PASSWORD, false);
      command(in, out, "b CREATE user/" + login, true);
      command(in, out, "c LOGOUT", false);
    }
  }

  /** Gives a user a password in the instance's sasldb, so a client can log in as that user. */
  public void setPassword(String login, String password) throws IOException {
    Path secret = dir.resolve("user.password");
    Files.writeString(secret, password);
    try {
      LocalDaemons.run(
          List.of(
              "sh",
              "-c",
              SASLPASSWD + " -p -c -f \"$1/sasldb2\" \"$2\" < \"$1/user.password\"",
              "saslpasswd",
              dir.toString(),
              login));
      LocalDaemons.run(List.of("chown", "cyrus:mail", dir.resolve("sasldb2").toString()));
    } finally {
      Files.deleteIfExists(secret);
    }
  }

  private static void command(BufferedReader in, OutputStream out, String line, boolean mayExist)
      throws IOException {
    out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    String tag = line.substring(0, line.indexOf(' ') + 1);
    for (String reply = in.readLine(); reply != null; reply = in.readLine()) {
      if (reply.startsWith(tag)) {
        boolean ok = reply.startsWith(tag + "OK");
        boolean exists =
            reply.contains("ALREADYEXISTS")
                || reply.toLowerCase(java.util.Locale.ROOT).contains("already exists");
        if (!ok && !(mayExist && exists)) {
          throw new IOException("Cyrus answered " + reply + " to " + line.split(" ")[1]);
        }
        return;
      }
    }
    throw new IOException("Cyrus closed the connection during " + line.split(" ")[1]);
  }

  private static CyrusServer start(boolean schedules) throws IOException {
    Path dir = ScratchSpace.directory("mailrestore-cyrus-");
    for (String sub : List.of("conf", "spool", "sieve", "run")) {
      Files.createDirectories(dir.resolve(sub));
    }
    int port = LocalDaemons.freePort();
    int httpPort = Files.isExecutable(HTTPD) ? LocalDaemons.freePort() : -1;
    String d = dir.toString();
    Path conf = dir.resolve("imapd.conf");
    Files.writeString(
        conf,
        """
        configdirectory: %1$s/conf
        partition-default: %1$s/spool
        sievedir: %1$s/sieve
        lmtpsocket: %1$s/run/lmtp
        idlesocket: %1$s/run/idle
        notifysocket: %1$s/run/notify
        admins: %2$s
        proxyservers: %2$s
        sasl_pwcheck_method: auxprop
        sasl_auxprop_plugin: sasldb
        sasl_sasldb_path: %1$s/sasldb2
        sasl_mech_list: PLAIN LOGIN
        allowplaintext: yes
        virtdomains: userid
        unixhierarchysep: yes
        munge8bit: no
        mailbox_legacy_dirs: yes
        syslog_prefix: mailrestore-cyrus
        httpmodules: caldav carddav
        caldav_allowscheduling: %3$s
        sendmail: %1$s/sendmail
        """
            .formatted(d, ADMIN, schedules ? "on" : "off"));
    // What Cyrus mails (iMIP invitations, when it schedules) is kept, not sent: see sent().
    Files.createDirectories(dir.resolve("sent"));
    Path sendmail = dir.resolve("sendmail");
    Files.writeString(
        sendmail,
        """
        #!/bin/sh
        # Cyrus runs "sendmail -bs" and speaks SMTP on its stdin and stdout; the mail is kept.
        out="@DIR@/sent/$(date +%s%N).eml"
        if [ "$1" != "-bs" ]; then cat > "$out"; exit 0; fi
        printf '220 localhost ESMTP kept, never sent\\r\\n'
        data=0
        while IFS= read -r line; do
          line=$(printf '%s' "$line" | tr -d '\\r')
          if [ "$data" = 1 ]; then
            if [ "$line" = "." ]; then data=0; printf '250 kept\\r\\n'
            else printf '%s\\n' "$line" >> "$out"; fi
            continue
          fi
          case "$line" in
            [Dd][Aa][Tt][Aa]*) data=1; printf '354 go on\\r\\n' ;;
            [Qq][Uu][Ii][Tt]*) printf '221 bye\\r\\n'; exit 0 ;;
            *) printf '250 ok\\r\\n' ;;
          esac
        done
        """
            .replace("@DIR@", d));
    sendmail.toFile().setExecutable(true, false);
    Files.writeString(
        dir.resolve("cyrus.conf"),
        """
        START {
          recover cmd="%1$s -C %2$s -r"
        }
        SERVICES {
          imap cmd="%3$s -C %2$s" listen="127.0.0.1:%4$d" prefork=0
          %5$s
        }
        EVENTS {
        }
        """
            .formatted(
                CTL_CYRUSDB,
                conf,
                imapd().orElseThrow(),
                port,
                httpPort > 0
                    ? "http cmd=\"%s -C %s\" listen=\"127.0.0.1:%d\" prefork=0"
                        .formatted(HTTPD, conf, httpPort)
                    : ""));
    Path secret = dir.resolve("admin.password");
    Files.writeString(secret, ADMIN_PASSWORD);
    LocalDaemons.run(
        List.of(
            "sh",
            "-c",
            SASLPASSWD + " -p -c -f \"$1/sasldb2\" " + ADMIN + " < \"$1/admin.password\"",
            "saslpasswd",
            d));
    Files.delete(secret);
    LocalDaemons.run(List.of("chown", "-R", "cyrus:mail", d));
    LocalDaemons.run(
        List.of(
            MASTER.toString(),
            "-C",
            conf.toString(),
            "-M",
            dir.resolve("cyrus.conf").toString(),
            "-p",
            dir.resolve("run/master.pid").toString(),
            "-d"));
    LocalDaemons.awaitPort(port, dir.resolve("no-log-cyrus-logs-to-syslog"));
    if (httpPort > 0) {
      LocalDaemons.awaitPort(httpPort, dir.resolve("no-log-cyrus-logs-to-syslog"));
    }
    return new CyrusServer(dir, port, httpPort);
  }

  /** The messages Cyrus has handed to its {@code sendmail} (kept by the instance, never sent). */
  public List<String> sent() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("sent"))) {
      List<String> mails = new java.util.ArrayList<>();
      for (Path f : files.sorted().toList()) {
        mails.add(Files.readString(f, StandardCharsets.UTF_8));
      }
      return mails;
    }
  }

  /** The process id of the instance's {@code master}, whose children serve the connections. */
  public long pid() throws IOException {
    try (Stream<String> pid = Files.lines(dir.resolve("run/master.pid"))) {
      return Long.parseLong(pid.findFirst().orElseThrow().strip());
    }
  }

  /** Stops the instance (the shutdown hook calls it). */
  public void stop() {
    try (Stream<String> pid = Files.lines(dir.resolve("run/master.pid"))) {
      pid.findFirst()
          .map(String::strip)
          .map(Long::parseLong)
          .flatMap(ProcessHandle::of)
          .ifPresent(ProcessHandle::destroy);
    } catch (IOException | NumberFormatException e) {
      // already gone
    }
  }

  @Override
  public String toString() {
    return "Cyrus at 127.0.0.1:" + port + " (" + dir + ")";
  }
}
