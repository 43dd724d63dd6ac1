package org.mailrestore.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The meters of a restore run from the command line, served for Prometheus while it runs at {@code
 * /actuator/prometheus} (the service's path, so one scrape config serves both) and {@code
 * /metrics}: the dashboards and the stall alert then see CLI restores too.
 */
final class MetricsEndpoint implements AutoCloseable {
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;

  private MetricsEndpoint(HttpServer server) {
    this.server = server;
  }

  /** Serves {@code registry} on the address and port ({@code 0}: any free port). */
  static MetricsEndpoint start(PrometheusMeterRegistry registry, String address, int port)
      throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 0);
    server.createContext("/actuator/prometheus", exchange -> scrape(exchange, registry));
    server.createContext("/metrics", exchange -> scrape(exchange, registry));
    server.start();
    return new MetricsEndpoint(server);
  }

  private static void scrape(HttpExchange exchange, PrometheusMeterRegistry registry)
      throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("GET")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Where Prometheus finds the meters. */
  String url() {
    InetSocketAddress a = server.getAddress();
    return "http://" + a.getHostString() + ":" + a.getPort() + "/actuator/prometheus";
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
