package org.mailrestore.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * Debian's Radicale (CardDAV and CalDAV), one instance for the tests of a JVM: its own
 * configuration, collections and users in a scratch directory, on a loopback port; never the
 * package's service. Users log in with plain passwords from its htpasswd file; its rights file lets
 * each user write under its own principal and the administrator {@link #ADMIN} under everyone's,
 * which is how an administrator restores into users' collections on Radicale.
 */
public final class RadicaleServer {

  public static final String ADMIN = "restoreadmin";
  public static final String ADMIN_PASSWORD = "admin-" + UUID.randomUUID();

  private static final Path BINARY = Path.of("/usr/bin/radicale");
  private static RadicaleServer instance;

  private final Path dir;
  private final int port;
  private final Process process;

  private RadicaleServer(Path dir, int port, Process process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  /** Whether Debian's radicale is installed ({@code .ci/run} installs it). */
  public static boolean installed() {
    return Files.isExecutable(BINARY);
  }

  /** The instance of this JVM, started on first use. */
  public static synchronized RadicaleServer get() throws IOException {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  /** The server's root URL, ending in a slash. */
  public String url() {
    return "http://127.0.0.1:" + port + "/";
  }

  public int port() {
    return port;
  }

  /** Adds a user that can log in with {@code password}. */
  public synchronized void addUser(String user, String password) throws IOException {
    Files.writeString(
        dir.resolve("users"),
        user + ":" + password + "\n",
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
  }

  /** Where Radicale keeps the collections (a vdir per collection). */
  public Path collections() {
    return dir.resolve("collections/collection-root");
  }

  private static RadicaleServer start() throws IOException {
    Path dir = ScratchSpace.directory("mailrestore-radicale-");
    int port = LocalDaemons.freePort();
    Files.writeString(dir.resolve("users"), ADMIN + ":" + ADMIN_PASSWORD + "\n");
    Files.writeString(
        dir.resolve("rights"),
        """
        # The administrator who restores reads and writes every user's collections.
        [admin]
        user: %s
        collection: .*
        permissions: RrWw

        # Everyone else: their own principal and what is under it.
        [principal]
        user: .+
        collection: {user}
        permissions: RrWw

        [owned]
        user: .+
        collection: {user}/[^/]+
        permissions: rw

        [root]
        user: .+
        collection:
        permissions: R
        """
            .formatted(ADMIN)); // a name with no character special to a regular expression
    Files.writeString(
        dir.resolve("config"),
        """
        [server]
        hosts = 127.0.0.1:%1$d
        max_content_length = 100000000

        [auth]
        type = htpasswd
        htpasswd_filename = %2$s/users
        htpasswd_encryption = plain
        delay = 0

        [rights]
        type = from_file
        file = %2$s/rights

        [storage]
        filesystem_folder = %2$s/collections

        [logging]
        level = warning
        """
            .formatted(port, dir));
    Process process =
        new ProcessBuilder(List.of(BINARY.toString(), "--config", dir.resolve("config").toString()))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("radicale.log").toFile())
            .start();
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
    LocalDaemons.awaitPort(port, dir.resolve("radicale.log"));
    return new RadicaleServer(dir, port, process);
  }

  /** The server's process id, for reading its CPU time from /proc. */
  public long pid() {
    return process.pid();
  }

  /** Whether the server still runs. */
  public boolean alive() {
    return process.isAlive();
  }
}
