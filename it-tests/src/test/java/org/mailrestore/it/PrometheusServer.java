package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.mailrestore.mail.Json;
import tools.jackson.databind.JsonNode;

/** A real Prometheus (Debian's package) as a process of its own, and its HTTP API. */
final class PrometheusServer implements AutoCloseable {

  private final Process process;
  private final String url;
  private final HttpClient http = HttpClient.newHttpClient();

  private PrometheusServer(Process process, String url) {
    this.process = process;
    this.url = url;
  }

  /** The directory of an installed binary ({@code prometheus}, {@code promtool}), if any. */
  static Optional<Path> binary(String name) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    return Stream.concat(Stream.of(path.split(":")), Stream.of("/usr/bin", "/usr/local/bin"))
        .map(dir -> Path.of(dir, name))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** Runs promtool with arguments in a directory; its exit code and output. */
  static Cli.Result promtool(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command =
        Stream.concat(Stream.of(binary("promtool").orElseThrow().toString()), Stream.of(args))
            .toList();
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Cli.Result(p.waitFor(), out, "");
  }

  /** Starts Prometheus with a configuration file, storing its data under {@code data}. */
  static PrometheusServer start(Path config, Path data) throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path log = data.resolveSibling("prometheus.log");
    Process process =
        new ProcessBuilder(
                binary("prometheus").orElseThrow().toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + data,
                "--web.listen-address=127.0.0.1:" + port)
            .directory(config.getParent().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    PrometheusServer server = new PrometheusServer(process, "http://127.0.0.1:" + port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!server.ready()) {
      assertThat(process.isAlive()).as("prometheus runs:%n%s", Files.readString(log)).isTrue();
      assertThat(System.nanoTime()).as("prometheus ready in 60 s").isLessThan(deadline);
      Thread.sleep(200);
    }
    return server;
  }

  private boolean ready() throws InterruptedException {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create(url + "/-/ready")).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException notYet) {
      return false;
    }
  }

  /** An instant query; the whole answer ({@code status}, {@code data.result}, {@code error}). */
  JsonNode query(String promql) throws IOException, InterruptedException {
    return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
  }

  /** The values a label takes in the series a selector matches. */
  JsonNode labelValues(String label, String match) throws IOException, InterruptedException {
    return get(
        "/api/v1/label/"
            + label
            + "/values?match[]="
            + URLEncoder.encode(match, StandardCharsets.UTF_8));
  }

  /** A GET of the HTTP API; the JSON answer, whatever its status. */
  JsonNode get(String pathAndQuery) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url + pathAndQuery)).build(),
            HttpResponse.BodyHandlers.ofString());
    return Json.MAPPER.readTree(r.body());
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
