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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;
import org.mailrestore.testkit.ScratchSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * What the console costs the service, against a {@code mailrestore serve} process of this checkout
 * (through its launcher) on a database of its own: a restore's time (from the operation's start to
 * its end, as the service records them) with no progress stream open and with 200 open, in
 * alternation; then, with 10,000 operations in the database, how long the operations list's first
 * page (what the console's first screen asks for) takes to answer.
 */
@Command(
    name = "console",
    mixinStandardHelpOptions = true,
    description =
        "A restore with 0 and with 200 open progress streams (Server-Sent Events); the operations"
            + " list's first page with 10,000 operations in the database.")
final class ConsoleCommand implements Callable<Integer> {

  @Mixin ServerOptions mariadb;

  @Option(names = "--streams", defaultValue = "200", description = "Open streams (default: 200)")
  int streams;

  @Option(names = "--rounds", defaultValue = "3", description = "Pairs of restores (default: 3)")
  int rounds;

  @Option(
      names = "--operations",
      defaultValue = "10000",
      description = "Operations in the database for the list (default: 10000)")
  int operations;

  @Option(
      names = "--accounts",
      defaultValue = "20",
      description = "Accounts of the restored backup (default: 20)")
  int accounts;

  @Option(
      names = "--items",
      defaultValue = "10000",
      description = "Items per account (default: 10000)")
  int items;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  private final HttpClient http = HttpClient.newHttpClient();
  private String url;
  private String token;

  @Override
  public Integer call() throws Exception {
    Path dir = ScratchSpace.directory("mailrestore-bench-console-");
    Path backups = Files.createDirectories(dir.resolve("backups"));
    Path backup = backups.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(accounts).withItemsPerAccount(items).withLargeRate(0),
        backup);
    try (BenchDatabase db =
        new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "console", 2)) {
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
          List.of(
              launcher.toString(),
              "serve",
              "--port",
              String.valueOf(port),
              "--spring.datasource.url=" + db.jdbcUrl(),
              "--spring.datasource.username=" + mariadb.user,
              "--spring.datasource.password=" + mariadb.password(),
              "--mailrestore.data-dir=" + dir.resolve("data"),
              "--mailrestore.sources.allowed-roots[0]=" + backups,
              "--mailrestore.security.tokens[0].name=bench",
              "--mailrestore.security.tokens[0].role=ADMIN",
              "--mailrestore.security.tokens[0].sha256="
                  + BlobDigest.ofContent(token.getBytes(StandardCharsets.UTF_8)).hex());
      Process service =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("service.log").toFile())
              .start();
      try {
        awaitReady(service, dir.resolve("service.log"));
        Report report = new Report("the console's cost to the service");
        report.context(
            "restore",
            accounts + " accounts x " + items + " items, a generated backup, each run fresh");
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        restore(backup, 0); // warms the service up, unmeasured
        for (int r = 0; r < rounds; r++) {
          without.add(restore(backup, 0));
          with.add(restore(backup, streams));
        }
        double a = median(without);
        double b = median(with);
        report.context(
            "restore seconds (median of " + rounds + ")",
            String.format(
                Locale.ROOT,
                "no stream %.2f %s; %d streams %.2f %s; slower by %.1f %%",
                a,
                without,
                streams,
                b,
                with,
                (b / a - 1) * 100));
        long total = (long) accounts * items;
        Report.Row limit = report.add("console", "restore, no stream open", total, 0, a);
        report.add("console", "restore, " + streams + " streams open", total, 0, b, limit);

        addOperations(db, operations);
        List<Double> pages = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          long t0 = System.nanoTime();
          JsonNode page = get("/api/v1/restores?size=20&page=0");
          pages.add((System.nanoTime() - t0) / 1e9);
          if (page.path("items").size() != 20) {
            throw new IllegalStateException("the first page holds " + page.path("items").size());
          }
        }
        report.context(
            "operations list, first page of 20 with " + operations + " operations",
            String.format(
                Locale.ROOT,
                "median %.1f ms, slowest %.1f ms of 20",
                median(pages) * 1000,
                pages.stream().mapToDouble(Double::doubleValue).max().orElse(0) * 1000));
        report.print(System.out);
        if (json != null) {
          report.writeJson(json);
        }
      } finally {
        service.destroy();
        service.waitFor(30, TimeUnit.SECONDS);
      }
    }
    ScratchSpace.deleteTree(dir);
    return 0;
  }

  /** One restore into accounts of its own, with {@code open} streams following it: seconds. */
  private double restore(Path backup, int open) throws Exception {
    String body =
        Json.MAPPER.writeValueAsString(
            java.util.Map.of(
                "source",
                java.util.Map.of("kind", "backup", "location", backup.toString()),
                "conflictPolicy",
                "new-account",
                "newAccountSuffix",
                "-b" + System.nanoTime()));
    JsonNode op = send("POST", "/api/v1/restores", body);
    String id = op.path("id").asString();
    AtomicLong events = new AtomicLong();
    List<CompletableFuture<?>> followers = new ArrayList<>();
    for (int i = 0; i < open; i++) {
      HttpRequest r =
          HttpRequest.newBuilder(URI.create(url + "/api/v1/restores/" + id + "/events"))
              .header("Authorization", "Bearer " + token)
              .build();
      followers.add(
          http.sendAsync(r, HttpResponse.BodyHandlers.ofLines())
              .thenAccept(resp ->
                  resp.body()
                      .forEach(line -> {
                        if (line.startsWith("event:")) {
                          events.incrementAndGet();
                        }
                      })));
    }
    JsonNode ended;
    do {
      ended = get("/api/v1/restores/" + id + "/await?timeout=PT30S");
    } while (!ended.path("finishedAt").isString());
    for (CompletableFuture<?> f : followers) {
      f.get(60, TimeUnit.SECONDS);
    }
    if (open > 0 && events.get() < open) {
      throw new IllegalStateException(events.get() + " events for " + open + " streams");
    }
    if (!"COMPLETED".equals(ended.path("state").asString())) {
      throw new IllegalStateException("the restore ended " + ended.path("state").asString());
    }
    return Duration.between(
                Instant.parse(ended.path("startedAt").asString()),
                Instant.parse(ended.path("finishedAt").asString()))
            .toMillis()
        / 1000.0;
  }

  /** Copies of an ended operation, as the database holds them, until there are {@code n}. */
  private static void addOperations(BenchDatabase db, int n) throws Exception {
    try (Connection c = db.dataSource.getConnection()) {
      String request;
      String source;
      try (PreparedStatement ps =
              c.prepareStatement("SELECT request, source FROM restore_operation LIMIT 1");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        request = rs.getString(1);
        source = rs.getString(2);
      }
      c.setAutoCommit(false);
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO restore_operation (id, state, source, request) VALUES (?, ?, ?, ?)")) {
        for (int i = 0; i < n; i++) {
          ps.setString(1, UUID.randomUUID().toString());
          ps.setString(2, i % 10 == 0 ? "PARTIAL" : "COMPLETED");
          ps.setString(3, source);
          ps.setString(4, request);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      c.commit();
    }
  }

  private JsonNode get(String path) throws Exception {
    return send("GET", path, null);
  }

  private JsonNode send(String method, String path, String body) throws Exception {
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

  private void awaitReady(Process service, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!service.isAlive()) {
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

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
  }
}
