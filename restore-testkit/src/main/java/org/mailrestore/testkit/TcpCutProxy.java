package org.mailrestore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a loopback port in front of a server (IMAP here) that cuts every {@code nth}
 * connection once the client has sent {@code cutAfter} bytes on it: both sides are closed
 * mid-command, as a dropped link or a server killed under load would. Other connections pass
 * untouched. For any protocol (the HTTP {@link FaultProxy} understands requests; this one does not
 * need to).
 */
public final class TcpCutProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final int targetPort;
  private final int nth;
  private final long cutAfter;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicLong cuts = new AtomicLong();

  private TcpCutProxy(ServerSocket listener, int targetPort, int nth, long cutAfter) {
    this.listener = listener;
    this.targetPort = targetPort;
    this.nth = nth;
    this.cutAfter = cutAfter;
  }

  public static TcpCutProxy start(int targetPort, int nth, long cutAfter) throws IOException {
    ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    TcpCutProxy proxy = new TcpCutProxy(listener, targetPort, nth, cutAfter);
    Thread.ofPlatform().daemon().name("tcp-cut-proxy").start(proxy::acceptLoop);
    return proxy;
  }

  /**
   * A proxy that cuts nothing, listening on {@code address}: a loopback server reached from another
   * network namespace (a test's other hosts).
   */
  public static TcpCutProxy forward(InetAddress address, int targetPort) throws IOException {
    ServerSocket listener = new ServerSocket(0, 50, address);
    TcpCutProxy proxy = new TcpCutProxy(listener, targetPort, Integer.MAX_VALUE, Long.MAX_VALUE);
    Thread.ofPlatform().daemon().name("tcp-forward").start(proxy::acceptLoop);
    return proxy;
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Connections accepted so far. */
  public int connections() {
    return connections.get();
  }

  /** Connections cut so far. */
  public long cuts() {
    return cuts.get();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        boolean cut = connections.incrementAndGet() % nth == 0;
        Thread.ofVirtual().start(() -> pump(client, server, cut ? cutAfter : Long.MAX_VALUE));
        Thread.ofVirtual().start(() -> pump(server, client, Long.MAX_VALUE));
      } catch (IOException e) {
        // closed, or the server refused: the client sees its connection end
      }
    }
  }

  private void pump(Socket from, Socket to, long limit) {
    byte[] buffer = new byte[16 * 1024];
    long passed = 0;
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        if (passed + n > limit) {
          out.write(buffer, 0, (int) (limit - passed));
          out.flush();
          cuts.incrementAndGet();
          break;
        }
        out.write(buffer, 0, n);
        out.flush();
        passed += n;
      }
    } catch (IOException e) {
      // the other direction closed the sockets
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
