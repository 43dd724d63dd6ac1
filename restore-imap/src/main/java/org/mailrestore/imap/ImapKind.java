package org.mailrestore.imap;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.sql.DataSource;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;
import org.mailrestore.kind.KindSecrets;

/**
 * A live IMAP server ({@code --target imap://host:port}): see docs/imap-target.md. The admin's
 * credentials come from the environment ({@code MAILRESTORE_IMAP_USER}, {@code
 * MAILRESTORE_IMAP_PASSWORD}) or a password file, never from the target spec, which is stored with
 * the operation.
 */
public final class ImapKind implements TargetKind {

  public static final String NAME = "imap";
  public static final String USER_ENV = "MAILRESTORE_IMAP_USER";
  public static final String PASSWORD_ENV = "MAILRESTORE_IMAP_PASSWORD";
  public static final String SQL_USER_ENV = "MAILRESTORE_IMAP_SQL_USER";
  public static final String SQL_PASSWORD_ENV = "MAILRESTORE_IMAP_SQL_PASSWORD";
  public static final String TRUST_STORE_PASSWORD_ENV = "MAILRESTORE_IMAP_TRUST_STORE_PASSWORD";

  static final String LOGIN = "login";
  static final String SEPARATOR = "master-separator";
  static final String PASSWORD_FILE = "password-file";
  static final String PROVISION = "provision";
  static final String SQL_URL = "sql-url";
  static final String SQL_TABLE = "sql-table";
  static final String SQL_USER_COLUMN = "sql-user-column";
  static final String SQL_PASSWORD_COLUMN = "sql-password-column";
  static final String STARTTLS = "starttls";
  static final String TRUST_STORE = "trust-store";
  static final String CONNECTIONS = "connections-per-account";
  static final String MAX_CONNECTIONS = "max-connections";
  static final String ALL_USERS = "acl-all-users";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "a live IMAP server (--target imap://host:port or imaps://...; admin from"
        + " MAILRESTORE_IMAP_USER and MAILRESTORE_IMAP_PASSWORD)";
  }

  @Override
  public KindOption location() {
    return KindOption.optional(
            "target", "The IMAP server: imap://host[:port] or imaps://host[:port]")
        .withFlag("--target");
  }

  /**
   * An {@code imap://} or {@code imaps://} URL, or a value with no scheme at all (refused by the
   * check, saying how to write it); {@code --target} names other kinds' servers by their schemes.
   */
  @Override
  public boolean takesLocation(String value) {
    String v = value.toLowerCase(java.util.Locale.ROOT);
    return v.startsWith("imap://") || v.startsWith("imaps://") || !v.contains("://");
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.choice(
            LOGIN,
            "How the admin acts for each user: authzid (SASL PLAIN with the user as"
                + " authorization identity: Dovecot, Cyrus, Zimbra) or separator (LOGIN as"
                + " user<separator>admin: Dovecot)",
            "authzid",
            List.of("authzid", "separator")),
        KindOption.optional(SEPARATOR, "The master-user separator for --imap-login separator")
            .withDefault("*"),
        KindOption.optional(
            PASSWORD_FILE, "A file holding the admin's password (else MAILRESTORE_IMAP_PASSWORD)"),
        KindOption.choice(
                PROVISION,
                "Accounts: none (they must exist on the server) or sql (insert missing ones into"
                    + " the user table the server reads)",
                "none",
                List.of("none", "sql"))
            .withFlag("--provision"),
        KindOption.optional(
            SQL_URL,
            "JDBC URL of the server's user database for --provision sql (user and password in"
                + " MAILRESTORE_IMAP_SQL_USER, MAILRESTORE_IMAP_SQL_PASSWORD)"),
        KindOption.optional(SQL_TABLE, "The user table").withDefault("users"),
        KindOption.optional(SQL_USER_COLUMN, "Its login column (user@domain)").withDefault("email"),
        KindOption.optional(SQL_PASSWORD_COLUMN, "Its password column").withDefault("password"),
        KindOption.choice(
            STARTTLS,
            "STARTTLS on imap://: when-offered, required, or never (loopback and tests only)",
            "when-offered",
            List.of("when-offered", "required", "never")),
        KindOption.optional(
            TRUST_STORE,
            "A trust store (PKCS12) with the CA of the server's certificate (password in"
                + " MAILRESTORE_IMAP_TRUST_STORE_PASSWORD)"),
        KindOption.optional(
                CONNECTIONS,
                "Connections per account at once (more only help a server that appends to one"
                    + " user's folders in parallel; each is a login)")
            .withDefault("1"),
        KindOption.optional(MAX_CONNECTIONS, "Connections to the server over all accounts")
            .withDefault("32"),
        KindOption.optional(
                ALL_USERS,
                "The server's ACL identifier for all authenticated users (Dovecot:"
                    + " authenticated; Cyrus: anyone)")
            .withDefault("authenticated"));
  }

  @Override
  public void check(TargetSpec spec, FieldProblems problems) {
    if (spec.location() != null) {
      try {
        ImapEndpoint.Address.parse(spec.location());
      } catch (IllegalArgumentException e) {
        problems.add("target.location", e.getMessage());
      }
    }
    for (String number : List.of(CONNECTIONS, MAX_CONNECTIONS)) {
      try {
        int n = Integer.parseInt(spec.option(number));
        if (n < 1 || n > 1000) {
          problems.add("target.options." + number, "must be between 1 and 1000");
        }
      } catch (NumberFormatException e) {
        problems.add("target.options." + number, "must be a number");
      }
    }
    for (String identifier : List.of(SQL_TABLE, SQL_USER_COLUMN, SQL_PASSWORD_COLUMN)) {
      if (!SqlUsers.IDENTIFIER.matcher(spec.option(identifier)).matches()) {
        problems.add("target.options." + identifier, "must be a plain SQL name");
      }
    }
    if ("sql".equals(spec.option(PROVISION)) && spec.option(SQL_URL) == null) {
      problems.add("target.options." + SQL_URL, "is required with provision sql");
    }
  }

  @Override
  public String describe(TargetSpec spec) {
    return "IMAP server " + spec.location();
  }

  @Override
  public void prepare(DataSource bookkeeping) {
    ImapRecords.migrate(bookkeeping);
  }

  @Override
  public MailTarget open(TargetSpec spec, TargetContext context) throws SQLException, IOException {
    if (spec.location() == null) {
      throw new IOException("an IMAP target needs its server: --target imap://host:port");
    }
    Map<String, String> env = context.environment();
    ImapEndpoint.Address address = ImapEndpoint.Address.parse(spec.location());
    ImapEndpoint endpoint =
        new ImapEndpoint(
            address.host(),
            address.port(),
            address.implicitTls(),
            ImapEndpoint.StartTls.parse(spec.option(STARTTLS)),
            tls(spec.option(TRUST_STORE), env.get(TRUST_STORE_PASSWORD_ENV)),
            10_000,
            120_000);
    AdminLogin login =
        new AdminLogin(
            required(env, USER_ENV),
            password(spec, env),
            AdminLogin.Method.parse(spec.option(LOGIN)),
            spec.option(SEPARATOR));
    ImapServer server =
        new ImapServer(
            endpoint,
            login,
            Integer.parseInt(spec.option(MAX_CONNECTIONS)),
            Integer.parseInt(spec.option(CONNECTIONS)));
    ImapRecords.migrate(context.bookkeeping());
    ImapRecords records = new ImapRecords(context.bookkeeping(), server.describe());
    SqlUsers users =
        "sql".equals(spec.option(PROVISION))
            ? new SqlUsers(
                spec.option(SQL_URL),
                env.get(SQL_USER_ENV),
                env.get(SQL_PASSWORD_ENV),
                spec.option(SQL_TABLE),
                spec.option(SQL_USER_COLUMN),
                spec.option(SQL_PASSWORD_COLUMN))
            : null;
    return new ImapTarget(server, records, users, spec.option(ALL_USERS));
  }

  private static String required(Map<String, String> env, String name) throws IOException {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IOException(
          "an IMAP target needs the admin's login in the environment variable " + name);
    }
    return value;
  }

  private static String password(TargetSpec spec, Map<String, String> env) throws IOException {
    try {
      return KindSecrets.password(
          spec.option(PASSWORD_FILE), env, PASSWORD_ENV, "the admin's", "--imap-password-file");
    } catch (IOException e) {
      throw new IOException("an IMAP target " + e.getMessage(), e);
    }
  }

  private static SSLContext tls(String trustStore, String password) throws IOException {
    return KindSecrets.tls(trustStore, password);
  }
}
