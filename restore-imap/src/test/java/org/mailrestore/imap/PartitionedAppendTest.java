package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.TcpCutProxy;

/**
 * An append sent just before the network between the writer and the server breaks (decision 0043):
 * the bytes wait in the writer's kernel and, without more, arrive when the network heals, long
 * after the lease ran out and another instance took the account over. The writer's host and the
 * server are on the two ends of a veth pair of the test's own (the server's end a network namespace
 * with a small forwarder to the real Dovecot); the partition is that link set down.
 */
class PartitionedAppendTest {

  private static final String FORWARDER =
      """
      import socket, sys, threading
      listen, port, up, uport = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
      def pump(a, b):
          try:
              while True:
                  d = a.recv(65536)
                  if not d:
                      break
                  b.sendall(d)
          except OSError:
              pass
          for s in (a, b):
              try:
                  s.shutdown(socket.SHUT_RDWR)
              except OSError:
                  pass
      l = socket.socket()
      l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
      l.bind((listen, port))
      l.listen(8)
      print("ready", flush=True)
      while True:
          c, _ = l.accept()
          u = socket.create_connection((up, uport))
          threading.Thread(target=pump, args=(c, u), daemon=True).start()
          threading.Thread(target=pump, args=(u, c), daemon=True).start()
      """;

  private final long pid = ProcessHandle.current().pid();
  private final String namespace = "mrpart" + pid % 100_000;
  private final String link = "mrpa" + pid % 100_000;
  private final String subnet = "10.253." + pid % 250 + ".";
  private final List<AutoCloseable> opened = new ArrayList<>();
  private Process forwarder;

  @Test
  void anAppendHeldInAPartitionPastItsLeaseNeverReachesTheServer() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "a network namespace needs root");
    assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")), "iproute2 is not installed");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 is not installed");
    assumeTrue(DovecotServer.installed(), "Dovecot is not installed: .ci/run installs it");
    DovecotServer dovecot = DovecotServer.get();
    String user = "p" + UUID.randomUUID().toString().substring(0, 8) + "@partition.example";
    dovecot.addUser(user);
    link(dovecot.port());

    ImapSession writer = login(subnet + "2", 1143, user);
    ImapSession reader = login("127.0.0.1", dovecot.port(), user);

    // Without a reset, what waited in the partition is run once the network heals.
    Lease held = () -> {};
    cut();
    CompletableFuture<List<ImapSession.Result>> late =
        CompletableFuture.supplyAsync(() -> append(writer, "first", held));
    Thread.sleep(1500);
    assertThat(late).isNotDone();
    assertThat(messages(reader)).isZero();
    long healed = System.nanoTime();
    mend();
    assertThat(late.get(60, TimeUnit.SECONDS).get(0).tagged().isOk()).isTrue();
    long delivery = System.nanoTime() - healed;
    assertThat(messages(reader)).isEqualTo(1);

    // With the lease lost while the answer is awaited, the connection is reset: never run.
    AtomicBoolean lost = new AtomicBoolean();
    Lease lease =
        () -> {
          if (lost.get()) {
            throw new LeaseLostException("taken over");
          }
        };
    cut();
    CompletableFuture<List<ImapSession.Result>> fenced =
        CompletableFuture.supplyAsync(() -> append(writer, "second", lease));
    Thread.sleep(1500);
    assertThat(fenced).isNotDone();
    lost.set(true);
    assertThatThrownBy(() -> fenced.get(5, TimeUnit.SECONDS))
        .hasCauseInstanceOf(LeaseLostException.class);
    mend();
    Thread.sleep(Math.max(3000, 3 * TimeUnit.NANOSECONDS.toMillis(delivery)));
    assertThat(messages(reader)).as("the second append arrived after all").isEqualTo(1);
  }

  private List<ImapSession.Result> append(ImapSession session, String subject, Lease lease) {
    byte[] message =
        ("Subject: " + subject + "\r\nMessage-ID: <" + UUID.randomUUID() + "@t>\r\n\r\nbody\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    try {
      return session.pipeline(
          List.of(Command.of("APPEND").mailbox("INBOX").text(" ").literal(message)), lease);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int messages(ImapSession reader) throws IOException {
    reader.ok(Command.of("EXAMINE").mailbox("INBOX"));
    int count = 0;
    for (Response r : reader.ok(Command.of("UID SEARCH ALL")).untagged()) {
      if (r.is("SEARCH")) {
        count += r.data().size() - 1;
      }
    }
    return count;
  }

  private ImapSession login(String host, int port, String user) throws Exception {
    ImapSession s =
        ImapSession.open(
            new ImapEndpoint(
                host,
                port,
                false,
                ImapEndpoint.StartTls.NEVER,
                SSLContext.getDefault(),
                10_000,
                120_000));
    opened.add(s);
    s.loginAs(
        new AdminLogin(
            DovecotServer.MASTER, DovecotServer.MASTER_PASSWORD, AdminLogin.Method.AUTHZID, "*"),
        user);
    return s;
  }

  /** The writer's end (here) and the server's end (a namespace forwarding to Dovecot). */
  private void link(int dovecotPort) throws Exception {
    run("ip", "netns", "add", namespace);
    run("ip", "link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", namespace);
    run("ip", "addr", "add", subnet + "1/30", "dev", link);
    run("ip", "link", "set", link, "up");
    run("ip", "-n", namespace, "addr", "add", subnet + "2/30", "dev", "eth0");
    run("ip", "-n", namespace, "link", "set", "eth0", "up");
    run("ip", "-n", namespace, "link", "set", "lo", "up");
    TcpCutProxy toDovecot = TcpCutProxy.forward(InetAddress.getByName(subnet + "1"), dovecotPort);
    opened.add(toDovecot);
    forwarder =
        new ProcessBuilder(
                "ip",
                "netns",
                "exec",
                namespace,
                "/usr/bin/python3",
                "-c",
                FORWARDER,
                subnet + "2",
                "1143",
                subnet + "1",
                String.valueOf(toDovecot.port()))
            .redirectErrorStream(true)
            .start();
    String ready =
        new String(forwarder.getInputStream().readNBytes(6), StandardCharsets.US_ASCII).trim();
    assertThat(ready).as("the forwarder in the namespace").isEqualTo("ready");
  }

  private void cut() throws Exception {
    run("ip", "link", "set", link, "down");
  }

  private void mend() throws Exception {
    run("ip", "link", "set", link, "up");
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : opened.reversed()) {
      try {
        c.close();
      } catch (Exception e) {
        // going anyway
      }
    }
    if (forwarder != null) {
      forwarder.destroyForcibly().waitFor();
    }
    new ProcessBuilder("ip", "link", "del", link).start().waitFor();
    new ProcessBuilder("ip", "netns", "del", namespace).start().waitFor();
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("%s: %s", String.join(" ", command), out).isZero();
  }
}
