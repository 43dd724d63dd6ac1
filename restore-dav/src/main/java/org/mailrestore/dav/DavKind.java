package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.imap.ImapAdministration;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;
import org.mailrestore.kind.KindSecrets;

/**
 * A CardDAV and CalDAV server ({@code --target dav://host:port/path} or {@code davs://...}): the
 * contacts, appointments and tasks of a restore, beside an IMAP server that takes the mail (see
 * docs/dav-target.md). The admin's credentials come from the environment ({@code
 * MAILRESTORE_DAV_USER}, {@code MAILRESTORE_DAV_PASSWORD}) or a password file, never from the
 * target spec, which is stored with the operation.
 */
public final class DavKind implements TargetKind {

  public static final String NAME = "dav";
  public static final String USER_ENV = "MAILRESTORE_DAV_USER";
  public static final String PASSWORD_ENV = "MAILRESTORE_DAV_PASSWORD";
  public static final String TRUST_STORE_PASSWORD_ENV = "MAILRESTORE_DAV_TRUST_STORE_PASSWORD";

  static final String PASSWORD_FILE = "password-file";
  static final String TRUST_STORE = "trust-store";
  static final String HOME = "home";
  static final String CYRUS_IMAP = "cyrus-imap";
  static final String SCHEDULING = "scheduling";
  static final String SCHEDULING_REFUSE = "refuse";
  static final String SCHEDULING_ALLOW = "allow";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "a CardDAV/CalDAV server for contacts, appointments and tasks (--target"
        + " dav://host:port/path or davs://...; admin from MAILRESTORE_DAV_USER and"
        + " MAILRESTORE_DAV_PASSWORD)";
  }

  @Override
  public KindOption location() {
    return KindOption.optional(
            "target", "The DAV server: dav://host[:port][/path] or davs://... (HTTPS)")
        .withFlag("--target");
  }

  @Override
  public boolean takesLocation(String value) {
    return DavServer.looksLikeOne(value);
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.optional(
            PASSWORD_FILE, "A file holding the admin's password (else MAILRESTORE_DAV_PASSWORD)"),
        KindOption.optional(
            TRUST_STORE,
            "A trust store (PKCS12) with the CA of the server's certificate (password in"
                + " MAILRESTORE_DAV_TRUST_STORE_PASSWORD)"),
        KindOption.optional(
                HOME,
                "Where each user's address books and calendars go, under the server's path:"
                    + " {address} (ann@example.org), {local} (ann) and {domain} are replaced."
                    + " Radicale: {address}/. With --dav-cyrus-imap: the Cyrus user,"
                    + " {address} (virtual domains) or {local}")
            .withDefault(TemplateHomes.DEFAULT),
        KindOption.optional(
            CYRUS_IMAP,
            "A Cyrus server: its IMAP URL (imap://host:143 or imaps://...), where the DAV admin,"
                + " one of Cyrus's admins, makes users' calendars and address books (the DAV"
                + " URL is then Cyrus's /dav/ root)"),
        KindOption.optional(
                SCHEDULING,
                "What to do with meetings (events and tasks with attendees) when the server"
                    + " schedules (it lists calendar-auto-schedule): refuse them, each failing"
                    + " with the reason, so no attendee is sent an invitation again; or allow"
                    + " them (the server may mail every attendee)")
            .withDefault(SCHEDULING_REFUSE));
  }

  @Override
  public void check(TargetSpec spec, FieldProblems problems) {
    if (spec.location() != null) {
      try {
        DavServer.base(spec.location());
      } catch (IllegalArgumentException e) {
        problems.add("target.location", e.getMessage());
      }
    }
    String cyrus = spec.option(CYRUS_IMAP);
    if (cyrus != null && !cyrus.isBlank()) {
      String c = cyrus.toLowerCase(Locale.ROOT);
      if (!c.startsWith("imap://") && !c.startsWith("imaps://")) {
        problems.add(
            "target.options." + CYRUS_IMAP,
            "must be Cyrus's IMAP URL: imap://host:143 or imaps://");
      }
    }
    String scheduling = spec.option(SCHEDULING);
    if (scheduling != null
        && !scheduling.equals(SCHEDULING_REFUSE)
        && !scheduling.equals(SCHEDULING_ALLOW)) {
      problems.add(
          "target.options." + SCHEDULING,
          "must be " + SCHEDULING_REFUSE + " or " + SCHEDULING_ALLOW + ", not " + scheduling);
    }
    String home = spec.option(HOME);
    if (!home.contains("{address}") && !home.contains("{local}")) {
      problems.add("target.options." + HOME, "must name the user: {address} or {local}");
    }
  }

  @Override
  public String describe(TargetSpec spec) {
    return "DAV server " + spec.location();
  }

  @Override
  public void prepare(DataSource bookkeeping) {
    DavRecords.migrate(bookkeeping);
  }

  @Override
  public MailTarget open(TargetSpec spec, TargetContext context) throws IOException {
    if (spec.location() == null) {
      throw new IOException("a DAV target needs its server: --target dav://host:port/path");
    }
    Map<String, String> env = context.environment();
    URI base = DavServer.base(spec.location());
    String user = env.get(USER_ENV);
    if (user == null || user.isBlank()) {
      throw new IOException(
          "a DAV target needs the admin's login in the environment variable " + USER_ENV);
    }
    String password;
    try {
      password =
          KindSecrets.password(
              spec.option(PASSWORD_FILE), env, PASSWORD_ENV, "the admin's", "--dav-password-file");
    } catch (IOException e) {
      throw new IOException("a DAV target " + e.getMessage(), e);
    }
    HttpClient.Builder http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            // HTTP/1.1: parallel writes each on a connection of its own. Over HTTP/2 they would
            // share one, which a server serving a connection in one process (Cyrus) serializes.
            .version(HttpClient.Version.HTTP_1_1);
    if (base.getScheme().equals("https")) {
      http.sslContext(KindSecrets.tls(spec.option(TRUST_STORE), env.get(TRUST_STORE_PASSWORD_ENV)));
    }
    DavClient client = new DavClient(http.build(), user, password);
    String cyrus = spec.option(CYRUS_IMAP);
    DavHomes homes;
    if (cyrus == null || cyrus.isBlank()) {
      homes = new TemplateHomes(base, client, spec.option(HOME));
    } else {
      String trustStore = spec.option(TRUST_STORE);
      String trustStorePassword = env.get(TRUST_STORE_PASSWORD_ENV);
      homes =
          new CyrusHomes(
              base,
              client,
              user,
              spec.option(HOME),
              () -> ImapAdministration.open(cyrus, user, password, trustStore, trustStorePassword));
    }
    DavServer server =
        new DavServer(base, client, homes, SCHEDULING_ALLOW.equals(spec.option(SCHEDULING)));
    DavRecords.migrate(context.bookkeeping());
    return new DavTarget(server, new DavRecords(context.bookkeeping(), server.describe()));
  }
}
