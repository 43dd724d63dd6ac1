package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestDatabase;
import tools.jackson.databind.JsonNode;

/**
 * {@code mailrestore serve} as a process of its own, on a free port, against a test database, with
 * one admin token (written to a file for the CLI's {@code --token-file}).
 */
final class ServiceProcess implements AutoCloseable {

  final String url;
  final Path tokenFile;
  final Path volume;
  private final CliProcess process;

  private ServiceProcess(String url, Path tokenFile, Path volume, CliProcess process) {
    this.url = url;
    this.tokenFile = tokenFile;
    this.volume = volume;
    this.process = process;
  }

  static ServiceProcess start(TestDatabase database, Path dir, Path allowedRoot)
      throws IOException {
    return start(database, dir, allowedRoot, List.of());
  }

  /** With more settings, e.g. {@code --mailrestore.volume.kind=s3}. */
  static ServiceProcess start(
      TestDatabase database, Path dir, Path allowedRoot, List<String> settings) throws IOException {
    return start(database, dir, allowedRoot, settings, Map.of());
  }

  /** With more settings and environment variables (a target's admin, say). */
  static ServiceProcess start(
      TestDatabase database,
      Path dir,
      Path allowedRoot,
      List<String> settings,
      Map<String, String> environment)
      throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String token = "it-token-" + port;
    Path tokenFile = Files.writeString(dir.resolve("admin-token"), token + "\n");
    Path data = dir.resolve("service-data");
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                String.valueOf(port),
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.server().user(),
                "--spring.datasource.password=" + database.server().password(),
                "--mailrestore.data-dir=" + data,
                "--mailrestore.lease-seconds=3",
                "--mailrestore.sources.allowed-roots[0]=" + allowedRoot,
                "--mailrestore.security.tokens[0].name=it",
                "--mailrestore.security.tokens[0].role=ADMIN",
                "--mailrestore.security.tokens[0].sha256="
                    + BlobDigest.ofContent(token.getBytes(StandardCharsets.UTF_8)).hex()));
    args.addAll(settings);
    ServiceProcess service =
        new ServiceProcess(
            "http://localhost:" + port,
            tokenFile,
            data.resolve("volume"),
            CliProcess.start(database.server().password(), null, environment, args));
    service.awaitReady();
    return service;
  }

  /** serve prints where the console is and how to sign in, once it listens. */
  private void awaitConsoleAddress() {
    String line = "the console is at " + url + "/";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!process.output().contains(line) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    assertThat(process.output()).contains(line).contains("sign in with an API token");
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      assertThat(process.isAlive()).as("the service exited:%n%s", process.output()).isTrue();
      try {
        HttpResponse<Void> r =
            http.send(
                HttpRequest.newBuilder(URI.create(url + "/actuator/health/readiness"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          awaitConsoleAddress();
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("the service was not ready in 120 s:\n" + process.output());
  }

  /** The settings of an S3 profile: an S3 server's region and keys, reached at an endpoint. */
  static List<String> s3Profile(String name, java.net.URI endpoint, S3Server s3) {
    String prefix = "--mailrestore.s3-profiles." + name + ".";
    return List.of(
        prefix + "endpoint=" + endpoint,
        prefix + "region=" + s3.region(),
        prefix + "access-key=" + s3.accessKey(),
        prefix + "secret-key=" + s3.secretKey());
  }

  /** Settings: a list of them (such as an S3 profile's), then more. */
  static List<String> settings(List<String> first, String... more) {
    List<String> all = new ArrayList<>(first);
    all.addAll(List.of(more));
    return all;
  }

  /** The CLI, in this JVM, pointed at this service with its token. */
  Cli.Result cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", url, "--token-file", tokenFile.toString()));
    return Cli.run(all.toArray(String[]::new));
  }

  /** A GET with the admin token; the body. */
  String get(String path) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url + path))
                    .header("Authorization", "Bearer " + Files.readString(tokenFile).strip())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path).isEqualTo(200);
    return r.body();
  }

  /** {@code restore status --json} of an operation. */
  JsonNode status(String operation) {
    Cli.Result r = cli("restore", "status", operation, "--json");
    assertThat(answered(r)).as(r.err()).isTrue();
    return Json.MAPPER.readTree(r.out());
  }

  /** Whether {@code status} answered: its exit code is the operation's state (0, 1, 3 or 8). */
  private static boolean answered(Cli.Result status) {
    return List.of(0, 1, 3, 8).contains(status.exitCode());
  }

  /** Waits (up to two minutes) until an operation has restored items: it is in phase 2. */
  void awaitItemsRestored(String operation) throws InterruptedException {
    awaitMoreRestored(operation, 0);
  }

  /**
   * Waits (up to two minutes) until an operation has restored more than {@code than} items and
   * returns how many it has. A status the service cannot give (it answers 503 while its database is
   * away) counts as no progress.
   */
  long awaitMoreRestored(String operation, long than) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      Cli.Result r = cli("restore", "status", operation, "--json");
      long restored =
          answered(r)
              ? Json.MAPPER.readTree(r.out()).path("counts").path("itemsRestored").asLong()
              : -1;
      if (restored > than) {
        return restored;
      }
      assertThat(System.nanoTime()).as("no progress:%n%s", output()).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  String output() {
    return process.output();
  }

  /** SIGTERM, then the exit: the graceful shutdown. */
  @Override
  public void close() throws Exception {
    process.terminate();
    process.waitFor(60);
  }
}
