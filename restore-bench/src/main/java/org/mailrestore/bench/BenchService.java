package org.mailrestore.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;
import tools.jackson.databind.JsonNode;

/**
 * A {@code mailrestore serve} process of this checkout, started through its launcher as an
 * administrator starts it, on a database of its own, with one admin token: what the benchmarks that
 * go through REST talk to.
 */
final class BenchService implements AutoCloseable {

  private final HttpClient http = HttpClient.newHttpClient();
  private final Process process;
  private final String url;
  private final String token;

  /**
   * Starts the service and waits until it is ready.
   *
   * @param dir its data directory and log ({@code service.log})
   * @param allowedRoot where the sources it may read lie
   * @param settings more {@code --name=value} settings (a volume, for instance)
   */
  BenchService(
      Path dir, BenchDatabase db, ServerOptions mariadb, Path allowedRoot, List<String> settings)
      throws Exception {
    this(dir, db, mariadb, allowedRoot, settings, Map.of());
  }

  /** As above, with more environment variables (a target's admin login, say). */
  BenchService(
      Path dir,
      BenchDatabase db,
      ServerOptions mariadb,
      Path allowedRoot,
      List<String> settings,
      Map<String, String> environment)
      throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    url = "http://localhost:" + port;
    token = "bench-" + UUID.randomUUID();
    Path launcher =
        Path.of(System.getenv().getOrDefault("MAILRESTORE_LAUNCHER", "mailrestore"))
            .toAbsolutePath();
    List<String> command =
        new ArrayList<>(
            List.of(
                launcher.toString(),
                "serve",
                "--port",
                String.valueOf(port),
                "--spring.datasource.url=" + db.jdbcUrl(),
                "--spring.datasource.username=" + mariadb.user,
                "--spring.datasource.password=" + mariadb.password(),
                "--mailrestore.data-dir=" + dir.resolve("data"),
                "--mailrestore.sources.allowed-roots[0]=" + allowedRoot,
                "--mailrestore.security.tokens[0].name=bench",
                "--mailrestore.security.tokens[0].role=ADMIN",
                "--mailrestore.security.tokens[0].sha256="
                    + BlobDigest.ofContent(token.getBytes(StandardCharsets.UTF_8)).hex()));
    command.addAll(settings);
    Path log = Files.createDirectories(dir).resolve("service.log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    process = builder.start();
    try {
      awaitReady(log);
    } catch (Exception e) {
      close();
      throw e;
    }
  }

  String url() {
    return url;
  }

  String token() {
    return token;
  }

  long pid() {
    return process.pid();
  }

  JsonNode get(String path) throws Exception {
    return send("GET", path, null);
  }

  /** A request with the admin token; an answer of 300 or more is an exception with its body. */
  JsonNode send(String method, String path, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + token);
    if (body != null) {
      b.header("Content-Type", "application/json");
      b.method(method, HttpRequest.BodyPublishers.ofString(body));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 300) {
      throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
    }
    return Json.MAPPER.readTree(r.body());
  }

  /** Waits (long polls) until the operation has ended, and returns it as the service says it. */
  JsonNode awaitEnd(String id) throws Exception {
    JsonNode ended;
    do {
      ended = get("/api/v1/restores/" + id + "/await?timeout=PT30S");
    } while (!ended.path("finishedAt").isString());
    return ended;
  }

  private void awaitReady(Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the service exited: " + Files.readString(log));
      }
      try {
        HttpResponse<Void> r =
            http.send(
                HttpRequest.newBuilder(URI.create(url + "/actuator/health/readiness")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not yet listening
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the service was not ready in 120 s: " + Files.readString(log));
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
