package org.mailrestore.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A Dovecot of the tests' own, from Debian's {@code dovecot-imapd} and {@code dovecot-mysql}: its
 * own configuration, data and run directories, a loopback port, a master user, ACLs, and its users
 * in an SQL userdb on the test MariaDB (table {@code users}: {@code email}, {@code password}), as a
 * site would run it. Never the package's system service. Started once per test JVM.
 */
public final class DovecotServer {

  public static final String MASTER = "mailrestore-master";
  public static final String MASTER_PASSWORD = "master-" + UUID.randomUUID();
  public static final String USER_PASSWORD = "user-secret";

  private static DovecotServer instance;

  private final Path dir;
  private final int port;
  private final String database;

  private DovecotServer(Path dir, int port, String database) {
    this.dir = dir;
    this.port = port;
    this.database = database;
  }

  /** Whether Dovecot is installed here (the tests that need it are skipped otherwise). */
  public static boolean installed() {
    return Files.isExecutable(Path.of("/usr/sbin/dovecot"))
        && Files.exists(Path.of("/usr/lib/dovecot/modules/auth/libdriver_mysql.so"))
        && Files.exists(Path.of("/usr/lib/dovecot/modules/lib02_imap_acl_plugin.so"));
  }

  public static synchronized DovecotServer get() throws IOException, SQLException {
    if (instance == null) {
      instance = start("");
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
    }
    return instance;
  }

  /**
   * Messages larger than this are refused by {@link #withoutLiteralPlus()}'s server, before their
   * literal is sent.
   */
  public static final long SIZE_LIMIT = 32L << 20;

  private static DovecotServer withoutLiteralPlus;

  /**
   * A second instance, as older or smaller servers are: no LITERAL+ (each literal waits for the
   * server's go-ahead) and a size limit of {@link #SIZE_LIMIT} per message ({@code
   * quota_max_mail_size}), which it checks before it asks for a literal.
   */
  public static synchronized DovecotServer withoutLiteralPlus() throws IOException, SQLException {
    if (withoutLiteralPlus == null) {
      withoutLiteralPlus =
          start(
              """
              protocol imap {
                imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE MULTIAPPEND \
              UIDPLUS NAMESPACE CHILDREN UNSELECT LIST-EXTENDED SPECIAL-USE ACL
              }
              plugin {
                quota_max_mail_size = %d
              }
              """
                  .formatted(SIZE_LIMIT));
      Runtime.getRuntime().addShutdownHook(new Thread(withoutLiteralPlus::stop));
    }
    return withoutLiteralPlus;
  }

  public int port() {
    return port;
  }

  public String url() {
    return "imap://127.0.0.1:" + port;
  }

  /** The JDBC URL of the user database (for {@code --provision sql}), credentials included. */
  public String usersJdbcUrl() {
    if (database == null) {
      throw new IllegalStateException(this + " reads its users from a directory, not a database");
    }
    MariaDbServer db = TestMariaDb.server();
    return "jdbc:mariadb://"
        + db.host()
        + ":"
        + db.port()
        + "/"
        + database
        + "?user="
        + db.user()
        + (db.password() == null || db.password().isEmpty() ? "" : "&password=" + db.password());
  }

  /** Adds a user who can log in with {@link #USER_PASSWORD}. */
  public void addUser(String email) throws SQLException {
    addUser(email, null);
  }

  /**
   * Adds a user with a quota rule of Dovecot's (e.g. {@code *:messages=20}; null for none, the
   * default: no limit).
   */
  public void addUser(String email, String quotaRule) throws SQLException {
    try (Connection c = DriverManager.getConnection(usersJdbcUrl());
        var ps =
            c.prepareStatement(
                "INSERT IGNORE INTO users (email, password, quota_rule) VALUES (?, ?, ?)")) {
      ps.setString(1, email);
      ps.setString(2, "{PLAIN}" + USER_PASSWORD);
      ps.setString(3, quotaRule);
      ps.executeUpdate();
    }
  }

  private static DovecotServer start(String settings) throws IOException, SQLException {
    Path dir = ScratchSpace.directory("mailrestore-dovecot-");
    // Dovecot's own processes (auth as user dovecot) read the configuration and the passwd file.
    Files.setPosixFilePermissions(
        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    int port = LocalDaemons.freePort();
    String database =
        "mr_dovecot_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    MariaDbServer db = TestMariaDb.server();
    try (Connection c = DriverManager.getConnection(db.serverUrl(), db.user(), db.password());
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + database);
      s.execute(
          "CREATE TABLE "
              + database
              + ".users (email VARCHAR(255) PRIMARY KEY, password VARCHAR(255) NOT NULL,"
              + " quota_rule VARCHAR(64) NULL)");
    }
    for (String sub : List.of("run", "state", "mail")) {
      Files.createDirectories(dir.resolve(sub));
    }
    Files.writeString(dir.resolve("master.passwd"), MASTER + ":{PLAIN}" + MASTER_PASSWORD + "\n");
    Files.writeString(
        dir.resolve("sql.conf"),
        String.join(
            "\n",
            "driver = mysql",
            "connect = host="
                + db.host()
                + " port="
                + db.port()
                + " dbname="
                + database
                + " user="
                + db.user()
                + (db.password() == null || db.password().isEmpty()
                    ? ""
                    : " password=" + db.password()),
            "default_pass_scheme = SHA512-CRYPT",
            "password_query = SELECT email AS user, password FROM users WHERE email = '%u'",
            "user_query = SELECT email AS user, quota_rule FROM users WHERE email = '%u'",
            "iterate_query = SELECT email AS user FROM users",
            ""));
    return configure(
        dir,
        port,
        database,
        """
        passdb {
          driver = sql
          args = %1$s/sql.conf
        }
        userdb {
          driver = sql
          args = %1$s/sql.conf
        }\
        """
                .formatted(dir)
            + "\n"
            + settings);
  }

  /**
   * A Dovecot of its own whose users are the entries under {@code base} of the tests' slapd that
   * {@code accountFilter} finds ({@code %u} the login), named by {@code userAttribute}, with their
   * {@code userPassword} (Dovecot's LDAP passdb and userdb, looked up as the slapd's root DN).
   */
  public static DovecotServer withLdapUsers(
      SlapdServer slapd, String base, String accountFilter, String userAttribute)
      throws IOException, SQLException {
    return withLdap(
        String.join(
            "\n",
            "hosts = 127.0.0.1:" + slapd.port(),
            "ldap_version = 3",
            "base = " + base,
            "scope = subtree",
            "dn = " + SlapdServer.ROOT_DN,
            "dnpass = " + SlapdServer.ROOT_PASSWORD,
            "auth_bind = no",
            "default_pass_scheme = SSHA",
            "pass_filter = " + accountFilter,
            "pass_attrs = " + userAttribute + "=user,userPassword=password",
            "user_filter = " + accountFilter,
            "user_attrs = " + userAttribute + "=user",
            "iterate_filter = " + accountFilter.replace("%u", "*"),
            "iterate_attrs = " + userAttribute + "=user",
            ""));
  }

  /**
   * A Dovecot of its own whose users are in an LDAP directory: {@code ldapConf} is Dovecot's {@code
   * dovecot-ldap.conf.ext} for its LDAP passdb and userdb (hosts, base, filters); the master user
   * is as in {@link #get()}. The caller stops it.
   */
  public static DovecotServer withLdap(String ldapConf) throws IOException, SQLException {
    Path dir = ScratchSpace.directory("mailrestore-dovecot-ldap-");
    Files.setPosixFilePermissions(
        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String sub : List.of("run", "state", "mail")) {
      Files.createDirectories(dir.resolve(sub));
    }
    Files.writeString(dir.resolve("master.passwd"), MASTER + ":{PLAIN}" + MASTER_PASSWORD + "\n");
    Files.writeString(dir.resolve("ldap.conf.ext"), ldapConf);
    return configure(
        dir,
        LocalDaemons.freePort(),
        null,
        """
        passdb {
          driver = ldap
          args = %1$s/ldap.conf.ext
        }
        userdb {
          driver = ldap
          args = %1$s/ldap.conf.ext
        }\
        """
            .formatted(dir));
  }

  private static DovecotServer configure(Path dir, int port, String database, String auth)
      throws IOException {
    boolean root = "root".equals(System.getProperty("user.name"));
    String me = System.getProperty("user.name");
    String users =
        root
            ? "mail_uid = mail\nmail_gid = mail\nfirst_valid_uid = 8\nfirst_valid_gid = 8\n"
            : "default_internal_user = "
                + me
                + "\ndefault_login_user = "
                + me
                + "\ndefault_internal_group = "
                + me
                + "\n";
    String d = dir.toString();
    Files.writeString(
        dir.resolve("dovecot.conf"),
        """
        base_dir = %1$s/run
        state_dir = %1$s/state
        log_path = %1$s/dovecot.log
        protocols = imap
        listen = 127.0.0.1
        ssl = no
        disable_plaintext_auth = no
        auth_mechanisms = plain login
        auth_master_user_separator = *
        auth_failure_delay = 0
        mail_location = mdbox:%1$s/mail/%%d/%%n
        %2$s
        mail_plugins = acl quota
        service imap-login {
          inet_listener imap {
            address = 127.0.0.1
            port = %3$d
          }
        }
        service stats {
          unix_listener stats-reader {
            mode = 0666
          }
          unix_listener stats-writer {
            mode = 0666
          }
        }
        passdb {
          driver = passwd-file
          master = yes
          args = %1$s/master.passwd
          pass = yes
        }
        %4$s
        namespace inbox {
          inbox = yes
          separator = /
          mailbox Sent {
            special_use = \\Sent
            auto = subscribe
          }
          mailbox Trash {
            special_use = \\Trash
            auto = subscribe
          }
          mailbox Junk {
            special_use = \\Junk
            auto = subscribe
          }
          mailbox Drafts {
            special_use = \\Drafts
            auto = subscribe
          }
        }
        protocol imap {
          mail_plugins = $mail_plugins imap_acl
        }
        plugin {
          acl = vfile
          acl_user = %%u
          quota = count:User quota
          quota_vsizes = yes
        }
        """
            .formatted(d, users, port, auth));
    if (root) {
      LocalDaemons.run(List.of("chown", "-R", "mail:mail", dir.resolve("mail").toString()));
    }
    LocalDaemons.run(List.of("/usr/sbin/dovecot", "-c", dir.resolve("dovecot.conf").toString()));
    DovecotServer server = new DovecotServer(dir, port, database);
    LocalDaemons.awaitPort(port, dir.resolve("dovecot.log"));
    return server;
  }

  /**
   * Runs {@code doveadm} on this instance's configuration, as its administrator would ({@code
   * mailbox create}, {@code save}, {@code flags add}); returns what it printed.
   *
   * @param input its standard input ({@code save} reads the message there), or null
   */
  public String doveadm(byte[] input, String... args) throws IOException {
    List<String> command = new java.util.ArrayList<>();
    command.addAll(List.of("/usr/bin/doveadm", "-c", dir.resolve("dovecot.conf").toString()));
    command.addAll(List.of(args));
    return LocalDaemons.output(command, input);
  }

  /**
   * Hands a directory to the user the server reads and writes mail as ({@code mail} when the tests
   * run as root), with every directory above it made searchable, so that a mail location given to
   * {@link #doveadm} ({@code -o mail_location=maildir:<dir>/%n}) can be used.
   */
  public void handOver(Path directory) throws IOException {
    Files.createDirectories(directory);
    for (Path p = directory.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
      LocalDaemons.run(List.of("chmod", "a+x", p.toString()));
    }
    if ("root".equals(System.getProperty("user.name"))) {
      LocalDaemons.run(List.of("chown", "-R", "mail:mail", directory.toString()));
    }
  }

  /** Stops the instance and drops its user database, if it has one (the shutdown hook calls it). */
  public void stop() {
    try {
      LocalDaemons.run(
          List.of("/usr/bin/doveadm", "-c", dir.resolve("dovecot.conf").toString(), "stop"));
    } catch (IOException e) {
      // already gone
    }
    if (database == null) {
      return; // its users are in a directory, not in a database of its own
    }
    MariaDbServer db = TestMariaDb.server();
    try (Connection c = DriverManager.getConnection(db.serverUrl(), db.user(), db.password());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + database);
    } catch (SQLException e) {
      // the server went first (an embedded one stops with the JVM): nothing is left to drop
    }
  }

  @Override
  public String toString() {
    return "Dovecot at 127.0.0.1:" + port + " (" + dir.toString().toLowerCase(Locale.ROOT) + ")";
  }
}
