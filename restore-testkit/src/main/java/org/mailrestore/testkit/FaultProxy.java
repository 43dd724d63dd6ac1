package org.mailrestore.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 proxy in front of an S3 server that misbehaves the way object stores and networks do:
 * every request waits {@code latency} before it is forwarded, and a share of requests is answered
 * {@code 503 SlowDown} or {@code 500 InternalError} instead, or has its response cut (the
 * connection reset) after the first bytes of a body. Faults are drawn from a seeded random, so a
 * run can be repeated; what was injected is counted.
 *
 * <p>It understands just enough HTTP for the S3 protocol: requests and responses framed by {@code
 * Content-Length} or chunked, {@code HEAD}, and {@code Expect: 100-continue} (answered by the proxy
 * itself).
 */
public final class FaultProxy implements AutoCloseable {

  /**
   * What to inject; shares are of all requests, drawn independently per request.
   *
   * @param slowDown share answered 503 SlowDown
   * @param serverError share answered 500 InternalError
   * @param reset share whose response (when it has a body over 1 KiB) is cut mid-body
   */
  public record Faults(
      double slowDown, double serverError, double reset, Duration latency, long seed) {

    public static Faults latencyOnly(Duration latency) {
      return new Faults(0, 0, 0, latency, 1);
    }
  }

  private static final int CUT_AFTER = 512;

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final Faults faults;
  private final SplittableRandom random;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong slowDowns = new AtomicLong();
  private final AtomicLong serverErrors = new AtomicLong();
  private final AtomicLong resets = new AtomicLong();
  private volatile boolean closed;

  private FaultProxy(ServerSocket listener, InetSocketAddress target, Faults faults) {
    this.listener = listener;
    this.target = target;
    this.faults = faults;
    this.random = new SplittableRandom(faults.seed());
  }

  /** Starts a proxy on a free loopback port in front of {@code targetEndpoint} (http only). */
  public static FaultProxy start(URI targetEndpoint, Faults faults) throws IOException {
    ServerSocket listener = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
    FaultProxy proxy =
        new FaultProxy(
            listener,
            new InetSocketAddress(targetEndpoint.getHost(), targetEndpoint.getPort()),
            faults);
    Thread.ofVirtual().name("fault-proxy-accept").start(proxy::acceptLoop);
    return proxy;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  public long requests() {
    return requests.get();
  }

  public long slowDowns() {
    return slowDowns.get();
  }

  public long serverErrors() {
    return serverErrors.get();
  }

  public long resets() {
    return resets.get();
  }

  /** Every fault injected so far. */
  public long faultsInjected() {
    return slowDowns.get() + serverErrors.get() + resets.get();
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%,d requests, %,d answered 503, %,d answered 500, %,d reset mid-body",
        requests(),
        slowDowns(),
        serverErrors(),
        resets());
  }

  private enum Fault {
    NONE,
    SLOW_DOWN,
    SERVER_ERROR,
    RESET
  }

  private Fault draw() {
    double r;
    synchronized (random) {
      r = random.nextDouble();
    }
    if (r < faults.slowDown()) {
      return Fault.SLOW_DOWN;
    }
    r -= faults.slowDown();
    if (r < faults.serverError()) {
      return Fault.SERVER_ERROR;
    }
    r -= faults.serverError();
    return r < faults.reset() ? Fault.RESET : Fault.NONE;
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        client.setTcpNoDelay(true);
        Thread.ofVirtual().start(() -> serve(client));
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  /** One client connection, kept alive request after request, on a server connection of its own. */
  private void serve(Socket client) {
    try (client;
        Socket server = new Socket()) {
      server.setTcpNoDelay(true);
      server.connect(target, 5000);
      InputStream fromClient = new BufferedInputStream(client.getInputStream(), 64 * 1024);
      OutputStream toClient = client.getOutputStream();
      InputStream fromServer = new BufferedInputStream(server.getInputStream(), 64 * 1024);
      OutputStream toServer = server.getOutputStream();
      while (!closed) {
        Head request = Head.read(fromClient);
        if (request == null) {
          return;
        }
        requests.incrementAndGet();
        Thread.sleep(faults.latency());
        Fault fault = draw();
        if (fault == Fault.SLOW_DOWN || fault == Fault.SERVER_ERROR) {
          // The body (if any) is not read: the connection closes, as servers do after an error.
          (fault == Fault.SLOW_DOWN ? slowDowns : serverErrors).incrementAndGet();
          toClient.write(errorResponse(fault));
          toClient.flush();
          return;
        }
        boolean expectContinue = "100-continue".equalsIgnoreCase(request.header("Expect"));
        toServer.write(request.withoutHeader("Expect").bytes());
        if (expectContinue) {
          toClient.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          toClient.flush();
        }
        copyBody(request, false, fromClient, toServer, Long.MAX_VALUE);
        toServer.flush();
        Head response = Head.read(fromServer);
        if (response == null) {
          return;
        }
        toClient.write(response.bytes());
        boolean noBody =
            request.method().equals("HEAD")
                || response.status() == 204
                || response.status() == 304
                || response.status() / 100 == 1;
        if (fault == Fault.RESET && !noBody && response.contentLength() > 2L * CUT_AFTER) {
          copyBody(response, false, fromServer, toClient, CUT_AFTER);
          toClient.flush();
          resets.incrementAndGet();
          client.setSoLinger(true, 0); // close with RST: a reset, not a clean end
          return;
        }
        if (!noBody) {
          copyBody(response, true, fromServer, toClient, Long.MAX_VALUE);
        }
        toClient.flush();
        if ("close".equalsIgnoreCase(response.header("Connection"))) {
          return;
        }
      }
    } catch (IOException e) {
      // A broken connection just ends; the client sees what the network would show.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static byte[] errorResponse(Fault fault) {
    String code = fault == Fault.SLOW_DOWN ? "SlowDown" : "InternalError";
    String status = fault == Fault.SLOW_DOWN ? "503 Slow Down" : "500 Internal Server Error";
    String body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
            + code
            + "</Code><Message>injected by the fault proxy</Message></Error>";
    return ("HTTP/1.1 "
            + status
            + "\r\nContent-Type: application/xml\r\nContent-Length: "
            + body.length()
            + "\r\nConnection: close\r\n\r\n"
            + body)
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Copies a message body framed by its head, at most {@code limit} bytes. A response with neither
   * length nor chunking runs to the end of the connection; a request without them has no body.
   */
  private static void copyBody(
      Head head, boolean isResponse, InputStream in, OutputStream out, long limit)
      throws IOException {
    if ("chunked".equalsIgnoreCase(head.header("Transfer-Encoding"))) {
      copyChunked(in, out);
      return;
    }
    long length = head.contentLength();
    if (length < 0) {
      length = isResponse ? Long.MAX_VALUE : 0;
    }
    copy(in, out, Math.min(length, limit), length == Long.MAX_VALUE);
  }

  private static void copy(InputStream in, OutputStream out, long n, boolean toEnd)
      throws IOException {
    byte[] buffer = new byte[64 * 1024];
    long left = n;
    while (left > 0) {
      int r = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (r < 0) {
        if (toEnd) {
          return;
        }
        throw new IOException("the peer closed mid-body");
      }
      out.write(buffer, 0, r);
      left -= r;
    }
  }

  private static void copyChunked(InputStream in, OutputStream out) throws IOException {
    while (true) {
      String sizeLine = Head.line(in);
      if (sizeLine == null) {
        throw new IOException("the peer closed mid-chunk");
      }
      out.write((sizeLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
      int semicolon = sizeLine.indexOf(';');
      long size =
          Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
      if (size == 0) {
        // trailers, then the empty line
        for (String t = Head.line(in); t != null; t = Head.line(in)) {
          out.write((t + "\r\n").getBytes(StandardCharsets.US_ASCII));
          if (t.isEmpty()) {
            return;
          }
        }
        return;
      }
      copy(in, out, size + 2, false); // the chunk and its CRLF
    }
  }

  /** A request or response head: the start line and the headers, as received. */
  private record Head(String startLine, String headers) {

    static Head read(InputStream in) throws IOException {
      String start = line(in);
      while (start != null && start.isEmpty()) {
        start = line(in); // tolerate stray CRLF between messages
      }
      if (start == null) {
        return null;
      }
      StringBuilder headers = new StringBuilder();
      for (String l = line(in); l != null && !l.isEmpty(); l = line(in)) {
        headers.append(l).append("\r\n");
      }
      return new Head(start, headers.toString());
    }

    static String line(InputStream in) throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream(128);
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n') {
          byte[] bytes = b.toByteArray();
          int n =
              bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
          return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
        }
        b.write(c);
      }
      return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    String method() {
      return startLine.substring(0, Math.max(0, startLine.indexOf(' ')));
    }

    int status() {
      String[] parts = startLine.split(" ", 3);
      return parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    }

    String header(String name) {
      for (String h : headers.split("\r\n")) {
        int colon = h.indexOf(':');
        if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return h.substring(colon + 1).trim();
        }
      }
      return null;
    }

    long contentLength() {
      String v = header("Content-Length");
      return v == null ? -1 : Long.parseLong(v);
    }

    Head withoutHeader(String name) {
      StringBuilder kept = new StringBuilder();
      for (String h : headers.split("\r\n")) {
        int colon = h.indexOf(':');
        if (h.isEmpty() || (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name))) {
          continue;
        }
        kept.append(h).append("\r\n");
      }
      return new Head(startLine, kept.toString());
    }

    byte[] bytes() {
      return (startLine + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
  }
}
