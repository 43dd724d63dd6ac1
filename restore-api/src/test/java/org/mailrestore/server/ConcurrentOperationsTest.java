package org.mailrestore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.ConflictPolicy;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Restores;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.verify.Verifier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The service under overlapping operations: for each conflict policy, 20 restores of the same
 * backup into the same accounts posted at once. One writer per account means they run one after
 * another (the others QUEUED): every one ends, within a bound, COMPLETED with no failure recorded,
 * and the mailstore holds exactly the backup.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConcurrentOperationsTest {

  static final String ADMIN = "concurrent-admin-token";
  static final int AT_ONCE = 20;
  static final Duration BOUND = Duration.ofMinutes(4);

  static TestDatabase database;
  static Path dir;
  static Path backup;

  @LocalServerPort int port;

  @Autowired Restores restores;

  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void fixtures() throws IOException {
    dir = ScratchSpace.directory("mailrestore-concurrent");
    backup = dir.resolve("backups/shared");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(40).withLargeRate(0), backup);
  }

  @AfterAll
  static void dropDatabase() {
    if (database != null) {
      database.close();
    }
  }

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    database = TestMariaDb.createDatabase();
    ServiceProperties.register(registry, database, dir, dir.resolve("backups"));
    registry.add("mailrestore.assist-interval", () -> "1s");
    ServiceProperties.token(registry, 0, "admin", ADMIN, "ADMIN");
  }

  private JsonNode send(HttpRequest.Builder b) throws Exception {
    HttpResponse<String> r =
        http.send(
            b.header("Authorization", "Bearer " + ADMIN).timeout(Duration.ofMinutes(2)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
    return Json.MAPPER.readTree(r.body());
  }

  private String post(String policy) throws Exception {
    String body =
        "{\"source\":{\"kind\":\"backup\",\"location\":\""
            + backup
            + "\"},\"conflictPolicy\":\""
            + policy
            + "\"}";
    return send(HttpRequest.newBuilder(uri("/api/v1/restores"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)))
        .path("id")
        .asString();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private JsonNode awaitEnd(String id, long deadline) throws Exception {
    while (System.nanoTime() < deadline) {
      JsonNode op = send(HttpRequest.newBuilder(uri("/api/v1/restores/" + id)).GET());
      String state = op.path("state").asString();
      if (!state.equals("QUEUED") && !state.equals("RUNNING")) {
        return op;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("operation " + id + " did not end within " + BOUND);
  }

  private void startAtOnceAndAwait(String policy) throws Exception {
    List<String> ids = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<String>> posted = new ArrayList<>();
      for (int i = 0; i < AT_ONCE; i++) {
        posted.add(threads.submit(() -> post(policy)));
      }
      for (Future<String> f : posted) {
        ids.add(f.get());
      }
    }
    long deadline = System.nanoTime() + BOUND.toNanos();
    for (String id : ids) {
      JsonNode op = awaitEnd(id, deadline);
      assertThat(op.path("state").asString()).as(policy + " " + op).isEqualTo("COMPLETED");
      assertThat(op.path("counts").path("errors").asLong()).as(op.toString()).isZero();
      assertThat(op.path("counts").path("itemsFailed").asLong()).as(op.toString()).isZero();
    }
    for (String id : ids) {
      JsonNode failures =
          send(HttpRequest.newBuilder(uri("/api/v1/restores/" + id + "/failures")).GET());
      assertThat(failures.path("items").size()).as(policy + " " + failures).isZero();
    }
  }

  @Test
  void twentyOverlappingOperationsOfEachPolicyAllEndAndLeaveTheBackupsState() throws Exception {
    for (String policy : List.of("merge", "replace", "new-account", "skip")) {
      startAtOnceAndAwait(policy);
      assertThat(
              restores
                  .verify(BackupSourceKind.local(backup), null, Verifier.Options.defaults())
                  .differences())
          .as("after " + policy)
          .isEmpty();
    }
    RestoreRequest copies =
        RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.NEW_ACCOUNT);
    UnaryOperator<String> copyName = copies::targetName;
    assertThat(
            restores
                .verify(
                    BackupSourceKind.local(backup),
                    null,
                    Verifier.Options.defaults().withTargetName(copyName).withCheckAliases(false))
                .differences())
        .as("the new-account copies")
        .isEmpty();
  }
}
