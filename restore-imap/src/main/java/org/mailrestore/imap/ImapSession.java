package org.mailrestore.imap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.LeaseLostException;

/**
 * One connection to the server: greeting, TLS, login as a user through the admin, then tagged
 * commands. Commands may be pipelined: with LITERAL+ (RFC 7888) nothing waits for the server
 * between them; without it each literal waits for the server's go-ahead. Not thread-safe: one
 * caller at a time.
 */
final class ImapSession implements Closeable {

  /** Literals up to this size need no go-ahead under LITERAL- (RFC 7888). */
  private static final int LITERAL_MINUS_MAX = 4096;

  private final String server;
  private Socket socket;
  private Socket raw; // the TCP socket under TLS, reset by abort()
  private Answers answers;
  private OutputStream out;
  private Set<String> capabilities = Set.of();
  private int nextTag = 1;
  private volatile boolean broken;

  private ImapSession(String server) {
    this.server = server;
  }

  /** The result of a command: its tagged answer and the untagged data that came before it. */
  record Result(Response tagged, List<Response> untagged) {}

  /**
   * Connects, reads the greeting and upgrades to TLS as the endpoint says.
   *
   * @throws IOException saying what failed (unreachable, TLS refused, a server that is no IMAP)
   */
  static ImapSession open(ImapEndpoint endpoint) throws IOException {
    ImapSession s = new ImapSession(endpoint.host() + ":" + endpoint.port());
    Socket plain = new Socket();
    try {
      plain.connect(
          new InetSocketAddress(endpoint.host(), endpoint.port()), endpoint.connectTimeoutMillis());
      plain.setSoTimeout(endpoint.readTimeoutMillis());
      plain.setTcpNoDelay(true);
      s.raw = plain;
      s.attach(endpoint.implicitTls() ? s.tls(endpoint, plain) : plain);
      Response greeting = s.answers.next();
      if (!greeting.isUntagged()
          || !("OK".equals(greeting.status()) || "PREAUTH".equals(greeting.status()))) {
        throw new IOException(s.server + " greeted with " + greeting.describe());
      }
      s.refreshCapabilities(greeting);
      if (!endpoint.implicitTls() && endpoint.startTls() != ImapEndpoint.StartTls.NEVER) {
        if (s.has("STARTTLS")) {
          s.ok(Command.of("STARTTLS"));
          s.attach(s.tls(endpoint, plain));
          s.capabilities = Set.of();
          s.refreshCapabilities(null);
        } else if (endpoint.startTls() == ImapEndpoint.StartTls.REQUIRED) {
          throw new IOException(s.server + " does not offer STARTTLS, and the target requires TLS");
        }
      }
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      plain.close();
      throw e;
    }
  }

  private SSLSocket tls(ImapEndpoint endpoint, Socket plain) throws IOException {
    SSLSocket tls =
        (SSLSocket)
            endpoint
                .tls()
                .getSocketFactory()
                .createSocket(plain, endpoint.host(), endpoint.port(), true);
    SSLParameters params = tls.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host
    tls.setSSLParameters(params);
    try {
      tls.startHandshake();
    } catch (IOException e) {
      throw new IOException("TLS with " + server + " failed: " + e.getMessage(), e);
    }
    return tls;
  }

  private void attach(Socket s) throws IOException {
    socket = s;
    answers =
        new Answers(
            new ResponseReader(new BufferedInputStream(s.getInputStream(), 1 << 16)), server);
    out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
  }

  /** Logs in as {@code user} through the admin; refreshes the capabilities. */
  void loginAs(AdminLogin login, String user) throws IOException {
    Result r =
        switch (login.method()) {
          case AUTHZID -> {
            if (!has("AUTH=PLAIN")) {
              throw new IOException(
                  server
                      + " does not offer SASL PLAIN, needed to act for users as "
                      + login.admin());
            }
            yield has("SASL-IR")
                ? run(Command.of("AUTHENTICATE PLAIN").text(" " + login.plainResponse(user)))
                : authenticateInTwoSteps(login.plainResponse(user));
          }
          case SEPARATOR ->
              run(Command.of("LOGIN").string(login.separatorLogin(user)).string(login.password()));
        };
    if (!r.tagged().isOk()) {
      throw new ImapException("logging in as " + user + " through " + login.admin(), r.tagged());
    }
    capabilities = Set.of();
    refreshCapabilities(r.tagged());
  }

  private Result authenticateInTwoSteps(String response) throws IOException {
    String tag = tag();
    out.write((tag + " AUTHENTICATE PLAIN\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    Response r = answers.next();
    if (!r.isContinuation()) {
      return new Result(r, List.of());
    }
    out.write((response + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return answers.collect(tag);
  }

  private void refreshCapabilities(Response withCode) throws IOException {
    if (withCode != null && withCode.codeName().equals("CAPABILITY")) {
      capabilities = parseCapabilities(withCode.codeArguments());
      return;
    }
    Result r = ok(Command.of("CAPABILITY"));
    for (Response u : r.untagged()) {
      if (u.is("CAPABILITY")) {
        capabilities =
            parseCapabilities(
                String.join(" ", u.data().stream().skip(1).map(String::valueOf).toList()));
      }
    }
  }

  private static Set<String> parseCapabilities(String list) {
    Set<String> caps = new HashSet<>();
    for (String c : list.trim().split("\\s+")) {
      caps.add(c.toUpperCase(Locale.ROOT));
    }
    return caps;
  }

  boolean has(String capability) {
    return capabilities.contains(capability.toUpperCase(Locale.ROOT));
  }

  String server() {
    return server;
  }

  /** Runs a command and requires OK. */
  Result ok(Command command) throws IOException {
    Result r = run(command);
    if (!r.tagged().isOk()) {
      throw new ImapException(command.name(), r.tagged());
    }
    return r;
  }

  /** Runs one command and returns its result, whatever the server's answer. */
  Result run(Command command) throws IOException {
    return pipeline(List.of(command)).get(0);
  }

  /**
   * Sends the commands without waiting between them where the literals allow, then reads every
   * answer. A broken connection (BYE, an I/O error) makes the session unusable.
   */
  List<Result> pipeline(List<Command> commands) throws IOException {
    return pipeline(commands, Lease.HELD);
  }

  /**
   * {@link #pipeline(List)} for writes the engine fences with a lease: checked as each command is
   * completed (see {@link #send(Command, Lease)}), so a process paused past its lease completes no
   * command after it (decision 0043). A lost lease leaves the session unusable.
   */
  List<Result> pipeline(List<Command> commands, Lease lease) throws IOException {
    if (broken) {
      throw new IOException("the connection to " + server + " was lost");
    }
    if (lease == Lease.HELD) {
      return pipelineUnwatched(commands, lease);
    }
    try (LeaseWatch watch = LeaseWatch.start(lease, this::abort)) {
      try {
        return pipelineUnwatched(commands, lease);
      } catch (IOException e) {
        if (watch.fired()) {
          throw new LeaseLostException(
              "the lease ran out while "
                  + server
                  + " had not answered yet; the connection was reset so that what it had not"
                  + " received is never run");
        }
        throw e;
      }
    }
  }

  private List<Result> pipelineUnwatched(List<Command> commands, Lease lease) throws IOException {
    try {
      boolean nonSync = has("LITERAL+") || has("LITERAL-");
      List<String> tags = new ArrayList<>(commands.size());
      List<Result> results = new ArrayList<>(commands.size());
      if (nonSync) {
        for (Command c : commands) {
          tags.add(send(c, lease));
        }
        out.flush();
        for (String tag : tags) {
          results.add(answers.collect(tag));
        }
      } else {
        for (Command c : commands) {
          String tag = send(c, lease);
          out.flush();
          results.add(answers.collect(tag));
        }
      }
      return results;
    } catch (IOException | RuntimeException e) {
      broken = true;
      throw e;
    }
  }

  /**
   * Sends a command. Under a lease, all of it but its final CRLF is flushed first and the lease is
   * checked then: a command is only a command once that CRLF arrives, so a process stopped while
   * sending (even inside the write of a large literal) and let go after its lease ran out resets
   * the connection instead, and the server runs none of it (decision 0043).
   */
  private String send(Command command, Lease lease) throws IOException {
    String tag = tag();
    out.write(tag.getBytes(StandardCharsets.US_ASCII));
    out.write(' ');
    boolean plus = has("LITERAL+");
    for (Object part : command.parts()) {
      if (part instanceof String s) {
        out.write(s.getBytes(StandardCharsets.UTF_8));
      } else {
        long size = part instanceof SpooledMessage m ? m.size() : ((byte[]) part).length;
        boolean nonSync = plus || (has("LITERAL-") && size <= LITERAL_MINUS_MAX);
        out.write(
            ("{" + size + (nonSync ? "+" : "") + "}\r\n").getBytes(StandardCharsets.US_ASCII));
        if (!nonSync) {
          out.flush();
          if (!answers.goAhead(tag)) {
            return tag; // refused before its literal: the command has ended
          }
        }
        if (part instanceof SpooledMessage m) {
          sendSpooled(m);
        } else {
          out.write((byte[]) part);
        }
      }
    }
    if (lease != Lease.HELD) {
      out.flush();
      try {
        lease.check();
      } catch (LeaseLostException e) {
        abort();
        throw e;
      }
    }
    out.write('\r');
    out.write('\n');
    return tag;
  }

  /**
   * A spooled message's bytes as a literal: exactly as many as announced, or the session breaks.
   */
  private void sendSpooled(SpooledMessage m) throws IOException {
    long sent;
    try (InputStream in = m.open()) {
      sent = in.transferTo(out);
    }
    if (sent != m.size()) {
      throw new IOException(
          "the spooled message " + m.file() + " has " + sent + " bytes, not " + m.size());
    }
  }

  /** Resets the connection (no orderly close): the server drops the command it was receiving. */
  private void abort() {
    broken = true;
    try {
      // On the TCP socket itself: closing a TLS socket would first try to write its close_notify.
      raw.setSoLinger(true, 0);
      raw.close();
    } catch (IOException e) {
      // closing is all that is left to do
    }
  }

  private String tag() {
    return "M" + nextTag++;
  }

  boolean isBroken() {
    return broken;
  }

  /** Whether the session still answers ({@code NOOP}): a server logs idle sessions out. */
  boolean alive() {
    if (broken) {
      return false;
    }
    try {
      return run(Command.of("NOOP")).tagged().isOk();
    } catch (IOException e) {
      return false;
    }
  }

  /** Logs out politely when the connection is sound; closes it in any case. */
  @Override
  public void close() {
    try {
      if (out != null && !broken) {
        socket.setSoTimeout(2000);
        run(Command.of("LOGOUT"));
      }
    } catch (IOException | RuntimeException e) {
      // closing anyway
    }
    try {
      if (socket != null) {
        socket.close();
      }
    } catch (IOException e) {
      // nothing more to do
    }
  }
}
