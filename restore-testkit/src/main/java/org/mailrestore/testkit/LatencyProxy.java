package org.mailrestore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy that adds a fixed delay to every request: the first bytes a client sends after the
 * server last answered (on a kept-alive connection, a new HTTP request) wait {@code delay} before
 * they are forwarded. It models the round trip to a remote object store, which is what limits
 * small-object throughput, not bandwidth.
 */
public final class LatencyProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final long delayNanos;
  private final AtomicLong requests = new AtomicLong();
  private volatile boolean closed;

  private LatencyProxy(ServerSocket listener, InetSocketAddress target, Duration delay) {
    this.listener = listener;
    this.target = target;
    this.delayNanos = delay.toNanos();
  }

  /** Starts a proxy on a free loopback port in front of {@code targetEndpoint} (http only). */
  public static LatencyProxy start(URI targetEndpoint, Duration delay) throws IOException {
    ServerSocket listener = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
    LatencyProxy proxy =
        new LatencyProxy(
            listener,
            new InetSocketAddress(targetEndpoint.getHost(), targetEndpoint.getPort()),
            delay);
    Thread.ofVirtual().name("latency-proxy-accept").start(proxy::acceptLoop);
    return proxy;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /** Requests delayed so far. */
  public long requests() {
    return requests.get();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        client.setTcpNoDelay(true);
        Thread.ofVirtual().start(() -> serve(client));
      } catch (IOException e) {
        if (!closed) {
          continue;
        }
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client;
        Socket server = new Socket()) {
      server.setTcpNoDelay(true);
      server.connect(target, 5000);
      AtomicBoolean awaitingRequest = new AtomicBoolean(true);
      Thread back =
          Thread.ofVirtual()
              .start(() ->
                  pump(server, client, () -> awaitingRequest.set(true), false, awaitingRequest));
      pump(client, server, () -> {}, true, awaitingRequest);
      back.join();
    } catch (IOException | InterruptedException e) {
      // A connection that breaks just ends; the client sees it as the network would show it.
    }
  }

  private void pump(
      Socket from,
      Socket to,
      Runnable afterForward,
      boolean delayRequests,
      AtomicBoolean awaiting) {
    byte[] buffer = new byte[64 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (delayRequests && awaiting.compareAndSet(true, false)) {
          requests.incrementAndGet();
          sleepNanos(delayNanos);
        }
        out.write(buffer, 0, n);
        out.flush();
        afterForward.run();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      closeQuietly(to);
      closeQuietly(from);
    }
  }

  private static void sleepNanos(long nanos) {
    try {
      Thread.sleep(Duration.ofNanos(nanos));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
    closed = true;
    listener.close();
  }
}
