package org.mailrestore.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * An OpenLDAP {@code slapd} of the tests' own, from Debian's {@code slapd}: its own {@code
 * cn=config} (made with {@code slapadd -n0}), its own database directory and a loopback port; never
 * the package's service. The schemas are OpenLDAP's core, cosine, nis, inetorgperson and misc, and
 * the Zimbra subset mailrestore writes (docs/ldap/zimbra-subset.ldif). One database holds {@link
 * #SUFFIX}; each test works under a base of its own ({@link #newBase}). Started once per test JVM.
 */
public final class SlapdServer {

  public static final String SUFFIX = "dc=mailrestore,dc=test";
  public static final String ROOT_DN = "cn=admin," + SUFFIX;
  public static final String ROOT_PASSWORD = "root-" + UUID.randomUUID();

  private static final Path SCHEMAS = Path.of("/etc/ldap/schema");
  private static SlapdServer instance;

  private final Path dir;
  private final int port;
  private final int tlsPort;

  private SlapdServer(Path dir, int port, int tlsPort) {
    this.dir = dir;
    this.port = port;
    this.tlsPort = tlsPort;
  }

  /** Whether slapd and the OpenLDAP tools are installed here (the tests are skipped otherwise). */
  public static boolean installed() {
    return Files.isExecutable(Path.of("/usr/sbin/slapd"))
        && Files.isExecutable(Path.of("/usr/sbin/slapadd"))
        && Files.isExecutable(Path.of("/usr/bin/ldapsearch"))
        && Files.exists(SCHEMAS.resolve("misc.ldif"))
        && Files.isExecutable(Path.of("/usr/bin/openssl"));
  }

  public static synchronized SlapdServer get() throws IOException {
    if (instance == null) {
      instance = start();
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
    }
    return instance;
  }

  public int port() {
    return port;
  }

  /** slapd's process id (its pid file). */
  public String pid() throws IOException {
    return Files.readString(dir.resolve("slapd.pid")).strip();
  }

  public String url() {
    return "ldap://127.0.0.1:" + port;
  }

  /**
   * The same directory over TLS from the first byte, with a certificate of {@link #caCertificate}.
   */
  public String ldapsUrl() {
    return "ldaps://127.0.0.1:" + tlsPort;
  }

  /**
   * The test CA (PEM) that signed the server's certificate (for 127.0.0.1 and localhost); ldap://
   * offers StartTLS with the same certificate.
   */
  public Path caCertificate() {
    return dir.resolve("ca.pem");
  }

  /** A new, empty base DN for one test ({@code ou=<random>,dc=mailrestore,dc=test}). */
  public String newBase(String prefix) throws IOException {
    String ou = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    String base = "ou=" + ou + "," + SUFFIX;
    ldap(
        "ldapadd",
        ("dn: " + base + "\nobjectClass: organizationalUnit\nou: " + ou + "\n")
            .getBytes(StandardCharsets.UTF_8));
    return base;
  }

  /**
   * Runs an OpenLDAP client tool ({@code ldapsearch}, {@code ldapadd}, {@code ldapmodify}) against
   * this server, bound as its root DN; returns what it printed.
   */
  public String ldap(String tool, byte[] input, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            "/usr/bin/" + tool,
            "-x",
            "-H",
            url(),
            "-D",
            ROOT_DN,
            "-w",
            ROOT_PASSWORD,
            "-o",
            "ldif-wrap=no"));
    command.addAll(List.of(args));
    return LocalDaemons.output(command, input);
  }

  /** The zimbra subset of docs/ldap, found from the working directory up. */
  static Path zimbraSubset() throws IOException {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("docs/ldap/zimbra-subset.ldif");
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new IOException(
        "docs/ldap/zimbra-subset.ldif is not above " + Path.of("").toAbsolutePath());
  }

  private static SlapdServer start() throws IOException {
    Path dir = ScratchSpace.directory("mailrestore-slapd-");
    Path config = dir.resolve("slapd.d");
    Path data = dir.resolve("data");
    Files.createDirectories(config);
    Files.createDirectories(data);
    int port = LocalDaemons.freePort();
    int tlsPort = LocalDaemons.freePort();
    certificates(dir);
    StringBuilder ldif = new StringBuilder();
    ldif.append(
        """
        dn: cn=config
        objectClass: olcGlobal
        cn: config
        olcPidFile: %1$s/slapd.pid
        olcArgsFile: %1$s/slapd.args
        olcTLSCACertificateFile: %1$s/ca.pem
        olcTLSCertificateFile: %1$s/server.pem
        olcTLSCertificateKeyFile: %1$s/server.key

        dn: cn=module{0},cn=config
        objectClass: olcModuleList
        cn: module{0}
        olcModulePath: /usr/lib/ldap
        olcModuleLoad: back_mdb

        dn: cn=schema,cn=config
        objectClass: olcSchemaConfig
        cn: schema

        """
            .formatted(dir));
    for (String schema : List.of("core", "cosine", "nis", "inetorgperson", "misc")) {
      ldif.append("include: file://").append(SCHEMAS.resolve(schema + ".ldif")).append("\n\n");
    }
    ldif.append("include: file://").append(zimbraSubset()).append("\n\n");
    ldif.append(
        """
        dn: olcDatabase={-1}frontend,cn=config
        objectClass: olcDatabaseConfig
        objectClass: olcFrontendConfig
        olcDatabase: {-1}frontend
        olcSizeLimit: unlimited

        dn: olcDatabase={0}config,cn=config
        objectClass: olcDatabaseConfig
        olcDatabase: {0}config
        olcAccess: {0}to * by * none

        dn: olcDatabase={1}mdb,cn=config
        objectClass: olcDatabaseConfig
        objectClass: olcMdbConfig
        olcDatabase: {1}mdb
        olcDbDirectory: %1$s
        olcSuffix: %2$s
        olcRootDN: %3$s
        olcRootPW: %4$s
        olcDbMaxSize: 4294967296
        olcDbNoSync: TRUE
        olcLastMod: TRUE
        olcAccess: {0}to attrs=userPassword by anonymous auth by * none
        olcAccess: {1}to * by * read
        olcDbIndex: objectClass eq
        olcDbIndex: mail,uid,cn eq
        olcDbIndex: mailLocalAddress eq
        olcDbIndex: zimbraId,zimbraMailDeliveryAddress,zimbraMailAlias eq

        """
            .formatted(data, SUFFIX, ROOT_DN, ROOT_PASSWORD));
    Path configLdif = dir.resolve("config.ldif");
    Files.writeString(configLdif, ldif.toString(), StandardCharsets.UTF_8);
    LocalDaemons.run(
        List.of("/usr/sbin/slapadd", "-n0", "-F", config.toString(), "-l", configLdif.toString()));
    Path suffix = dir.resolve("suffix.ldif");
    Files.writeString(
        suffix,
        "dn: "
            + SUFFIX
            + "\nobjectClass: dcObject\nobjectClass: organization\ndc: mailrestore\no: mailrestore\n",
        StandardCharsets.UTF_8);
    LocalDaemons.run(
        List.of("/usr/sbin/slapadd", "-n1", "-F", config.toString(), "-l", suffix.toString()));
    LocalDaemons.run(
        List.of(
            "/usr/sbin/slapd",
            "-F",
            config.toString(),
            "-h",
            "ldap://127.0.0.1:" + port + "/ ldaps://127.0.0.1:" + tlsPort + "/"));
    SlapdServer server = new SlapdServer(dir, port, tlsPort);
    LocalDaemons.awaitPort(port, dir.resolve("slapd.log"));
    return server;
  }

  /** A CA of the test's own and a server certificate it signed, for 127.0.0.1 and localhost. */
  private static void certificates(Path dir) throws IOException {
    String d = dir.toString();
    Files.writeString(
        dir.resolve("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    LocalDaemons.run(
        List.of(
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            d + "/ca.key",
            "-out",
            d + "/ca.pem",
            "-subj",
            "/CN=mailrestore test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign"));
    LocalDaemons.run(
        List.of(
            "openssl",
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            d + "/server.key",
            "-out",
            d + "/server.csr",
            "-subj",
            "/CN=localhost"));
    LocalDaemons.run(
        List.of(
            "openssl",
            "x509",
            "-req",
            "-in",
            d + "/server.csr",
            "-CA",
            d + "/ca.pem",
            "-CAkey",
            d + "/ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-out",
            d + "/server.pem",
            "-extfile",
            d + "/server.ext"));
  }

  /** Stops the instance (the shutdown hook calls it). */
  public void stop() {
    try {
      Path pid = dir.resolve("slapd.pid");
      if (Files.exists(pid)) {
        LocalDaemons.run(List.of("kill", Files.readString(pid).strip()));
      }
    } catch (IOException e) {
      // already gone
    }
  }

  @Override
  public String toString() {
    return "slapd at 127.0.0.1:" + port + " (" + dir.toString().toLowerCase(Locale.ROOT) + ")";
  }
}
