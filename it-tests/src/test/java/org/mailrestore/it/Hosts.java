package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.mailrestore.testkit.ScratchSpace;

/**
 * Machines of a test's own, made of Linux network namespaces: each host is a namespace with one
 * interface on a bridge only these hosts and the test share (no route anywhere else), so a host can
 * be cut off by taking its link down. One host runs a MariaDB server of its own. Needs root and
 * {@code ip}; a test is skipped, saying why, where they are missing.
 */
final class Hosts implements AutoCloseable {

  /**
   * Hosts made by this JVM so far: each set gets names of its own, since the kernel removes a
   * deleted namespace's interfaces in the background and the next test may start before it has.
   */
  private static final AtomicInteger MADE = new AtomicInteger();

  private final String prefix;
  private final String subnet;
  private final Map<String, String> addresses = new LinkedHashMap<>();
  private final List<String> namespaces = new ArrayList<>();
  private final Path dataDir;
  private Process database;

  private Hosts(String prefix, String subnet, Path dataDir) {
    this.prefix = prefix;
    this.subnet = subnet;
    this.dataDir = dataDir;
  }

  /** Skips the calling test unless namespaces can be made here. */
  static void assumeAvailable() {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "several hosts need root (network namespaces)");
    for (String tool :
        List.of("/usr/sbin/ip", "/usr/sbin/mariadbd", "/usr/bin/mariadb-install-db")) {
      assumeTrue(Files.isExecutable(Path.of(tool)), tool + " is not installed");
    }
  }

  /** A bridge and one namespace per name, numbered from .1 on a /24 of their own. */
  static Hosts create(String... names) throws Exception {
    long pid = ProcessHandle.current().pid();
    // Interface names hold 15 bytes: "mr" + 5 digits + a letter + "-db" + "v" fits.
    String prefix = "mr" + (pid % 100_000) + (char) ('a' + MADE.getAndIncrement() % 26);
    Hosts hosts =
        new Hosts(
            prefix,
            "10." + (64 + (pid / 250) % 128) + "." + (pid % 250) + ".",
            ScratchSpace.directory("hosts-" + prefix));
    try {
      hosts.run("ip", "link", "add", prefix + "br", "type", "bridge");
      hosts.run("ip", "addr", "add", hosts.subnet + "254/24", "dev", prefix + "br");
      hosts.run("ip", "link", "set", prefix + "br", "up");
      int n = 1;
      for (String name : names) {
        String ns = hosts.namespace(name);
        String address = hosts.subnet + n++;
        hosts.run("ip", "netns", "add", ns);
        hosts.namespaces.add(ns);
        hosts.run(
            "ip", "link", "add", ns + "v", "type", "veth", "peer", "name", "eth0", "netns", ns);
        hosts.run("ip", "link", "set", ns + "v", "master", prefix + "br", "up");
        hosts.run("ip", "-n", ns, "addr", "add", address + "/24", "dev", "eth0");
        hosts.run("ip", "-n", ns, "link", "set", "eth0", "up");
        hosts.run("ip", "-n", ns, "link", "set", "lo", "up");
        hosts.addresses.put(name, address);
      }
      return hosts;
    } catch (Exception | AssertionError e) {
      hosts.close();
      throw e;
    }
  }

  /** The test's own address on the bridge: where the hosts reach what the test runs. */
  String gateway() {
    return subnet + "254";
  }

  String address(String host) {
    return addresses.get(host);
  }

  private String namespace(String host) {
    return prefix + "-" + host;
  }

  /** A command as it runs on {@code host}. */
  List<String> on(String host, List<String> command) {
    List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
    all.addAll(command);
    return all;
  }

  /** Takes the host's only link down: it reaches nothing, nothing reaches it. */
  void cut(String host) throws Exception {
    run("ip", "-n", namespace(host), "link", "set", "eth0", "down");
  }

  /** Brings the link back. */
  void mend(String host) throws Exception {
    run("ip", "-n", namespace(host), "link", "set", "eth0", "up");
  }

  /**
   * Starts a MariaDB server of its own on {@code host} (data in memory), with a {@code root} that
   * may connect from the other hosts; answers its JDBC base URL.
   */
  String startDatabase(String host) throws Exception {
    Path data = dataDir.resolve("mariadb");
    run(
        "mariadb-install-db",
        "--no-defaults",
        "--datadir=" + data,
        "--user=root",
        "--auth-root-authentication-method=normal");
    Path socket = dataDir.resolve("mariadb.sock");
    ProcessBuilder builder =
        new ProcessBuilder(
                on(
                    host,
                    List.of(
                        "/usr/sbin/mariadbd",
                        "--no-defaults",
                        "--datadir=" + data,
                        "--socket=" + socket,
                        "--pid-file=" + dataDir.resolve("mariadb.pid"),
                        "--port=3306",
                        "--bind-address=" + address(host),
                        "--user=root",
                        "--innodb-buffer-pool-size=128M",
                        "--max-connections=500")))
            .redirectErrorStream(true)
            .redirectOutput(dataDir.resolve("mariadb.log").toFile());
    database = builder.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(socket)) {
      assertThat(database.isAlive()).as("mariadbd on %s: %s", host, log("mariadb.log")).isTrue();
      assertThat(System.nanoTime()).as("mariadbd did not start in 60 s").isLessThan(deadline);
      Thread.sleep(100);
    }
    run(
        "mariadb",
        "--no-defaults",
        "-S",
        socket.toString(),
        "-uroot",
        "-e",
        "CREATE USER 'root'@'%' IDENTIFIED BY ''; GRANT ALL ON *.* TO 'root'@'%' WITH GRANT"
            + " OPTION;");
    return "jdbc:mariadb://" + address(host) + ":3306/";
  }

  private String log(String name) {
    try {
      return Files.readString(dataDir.resolve(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
  }

  private void runQuietly(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      p.waitFor(30, TimeUnit.SECONDS);
    } catch (IOException | InterruptedException e) {
      // cleaning up: what is left is removed with its namespace
    }
  }

  @Override
  public void close() {
    if (database != null) {
      database.destroyForcibly();
      try {
        database.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (String ns : namespaces) {
      runQuietly("ip", "netns", "delete", ns);
    }
    runQuietly("ip", "link", "delete", prefix + "br");
  }
}
