package org.mailrestore.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The least an IMAP client does to push a Maildir tree: the floor of the IMAP target, measured in
 * the same run as it. Each user logs in once; each folder is created and subscribed; a folder's
 * files are read and sent as they are (Dovecot turns bare line feeds into CRLF itself), up to 1,000
 * messages or 8 MiB per MULTIAPPEND with non-synchronizing literals, as the IMAP writer groups
 * them. Nothing else: no database, no digest, no check of a file, no record of what was sent. It
 * runs in the benchmark's own JVM, which is warm, so a command's start is not in it either.
 */
final class RawImapPush {

  private static final int MESSAGES_PER_APPEND = 1_000;
  private static final long BYTES_PER_APPEND = 8L << 20;

  /** Wall seconds, this JVM's CPU seconds and the server's, and the messages sent. */
  record Pushed(double seconds, double clientCpu, double serverCpu, long messages) {}

  private RawImapPush() {}

  /** Pushes every user of {@code tree} as {@code <user>@<domain>}, {@code connections} at once. */
  static Pushed push(
      BenchDovecot server, Path tree, List<String> users, String domain, int connections)
      throws Exception {
    double serverCpu = server.cpuSeconds();
    long cpu = RestoreRun.cpuNanos();
    long start = System.nanoTime();
    long messages = 0;
    try (ExecutorService pool = Executors.newFixedThreadPool(connections)) {
      List<Future<Long>> pushes = new ArrayList<>();
      for (String user : users) {
        String login = user + "@" + domain + "*" + BenchDovecot.MASTER;
        pushes.add(
            pool.submit(() -> pushUser(server.port, login, server.masterPassword, tree, user)));
      }
      for (Future<Long> pushed : pushes) {
        messages += pushed.get();
      }
    }
    return new Pushed(
        (System.nanoTime() - start) / 1e9,
        (RestoreRun.cpuNanos() - cpu) / 1e9,
        server.cpuSeconds() - serverCpu,
        messages);
  }

  private static long pushUser(int port, String login, String password, Path tree, String user)
      throws IOException {
    Path mailbox = tree.resolve(user);
    List<Path> folders;
    try (Stream<Path> dirs = Files.list(mailbox)) {
      folders =
          Stream.concat(
                  Stream.of(mailbox),
                  dirs.filter(d -> d.getFileName().toString().startsWith(".")).sorted())
              .filter(d -> Files.isDirectory(d.resolve("cur")))
              .toList();
    }
    long sent = 0;
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setTcpNoDelay(true);
      Session session =
          new Session(
              new BufferedInputStream(socket.getInputStream(), 1 << 16),
              new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
      session.greeting();
      session.command("LOGIN " + quoted(login) + " " + quoted(password));
      for (Path folder : folders) {
        String name = imapName(mailbox, folder);
        if (!name.equals("INBOX")) {
          session.command("CREATE " + quoted(name));
          session.command("SUBSCRIBE " + quoted(name));
        }
        sent += appendAll(session, name, folder.resolve("cur"));
      }
      session.command("LOGOUT");
    }
    return sent;
  }

  /** {@code .a.b} is {@code a/b} (the benchmark's Dovecot separates levels with a slash). */
  private static String imapName(Path mailbox, Path folder) {
    if (folder.equals(mailbox)) {
      return "INBOX";
    }
    return folder.getFileName().toString().substring(1).replace('.', '/');
  }

  private static long appendAll(Session session, String folder, Path cur) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(cur)) {
      files = s.sorted().toList();
    }
    int next = 0;
    while (next < files.size()) {
      session.begin("APPEND " + quoted(folder));
      long bytes = 0;
      int inCommand = 0;
      while (next < files.size() && inCommand < MESSAGES_PER_APPEND && bytes < BYTES_PER_APPEND) {
        byte[] message = Files.readAllBytes(files.get(next++));
        session.literal(message);
        bytes += message.length;
        inCommand++;
      }
      session.end();
    }
    return files.size();
  }

  private static String quoted(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** One connection: a command at a time, its tagged answer awaited. */
  private static final class Session {
    private final InputStream in;
    private final OutputStream out;
    private int tags;
    private String tag;

    Session(InputStream in, OutputStream out) {
      this.in = in;
      this.out = out;
    }

    void greeting() throws IOException {
      String line = line();
      if (!line.startsWith("* OK")) {
        throw new IOException("the server greeted with: " + line);
      }
    }

    void command(String command) throws IOException {
      begin(command);
      end();
    }

    void begin(String command) throws IOException {
      tag = "r" + ++tags;
      out.write((tag + " " + command).getBytes(StandardCharsets.UTF_8));
    }

    /** One message of a MULTIAPPEND, marked seen as the tree's files are. */
    void literal(byte[] message) throws IOException {
      out.write((" (\\Seen) {" + message.length + "+}\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(message);
    }

    void end() throws IOException {
      out.write('\r');
      out.write('\n');
      out.flush();
      String line;
      do {
        line = line();
      } while (!line.startsWith(tag + " "));
      if (!line.startsWith(tag + " OK")) {
        throw new IOException("the server answered: " + line);
      }
    }

    private String line() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream(128);
      int b;
      while ((b = in.read()) >= 0 && b != '\n') {
        if (b != '\r') {
          line.write(b);
        }
      }
      if (b < 0) {
        throw new IOException("the server closed the connection");
      }
      return line.toString(StandardCharsets.UTF_8);
    }
  }
}
