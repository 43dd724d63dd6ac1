package org.mailrestore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.Restores;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Every endpoint of the REST API against the running service (real MariaDB, real volume): its
 * answers, its errors as problem details, who may call what, what sources it refuses, and the
 * idempotency key.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RestoreApiTest {

  static final String ADMIN_TOKEN = "test-admin-token";
  static final String VIEWER_TOKEN = "test-viewer-token";

  static TestDatabase database;
  static Path dir;
  static Path allowed;
  static Path small;
  static Path large;
  static Path broken;

  @LocalServerPort int port;

  @Autowired DataSource dataSource;

  @Autowired Restores restores;

  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void fixtures() throws IOException {
    dir = ScratchSpace.directory("mailrestore-api-test");
    allowed = Files.createDirectories(dir.resolve("backups"));
    small = allowed.resolve("small");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(60).withLargeRate(0), small);
    large = allowed.resolve("large");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(6).withItemsPerAccount(1500).withLargeRate(0), large);
    Files.createSymbolicLink(allowed.resolve("escape"), Path.of("/etc"));
    // A backup whose blobs are gone: its restore ends PARTIAL, each item with its reason.
    broken = allowed.resolve("broken");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(10).withLargeRate(0), broken);
    try (var blobs = Files.walk(broken.resolve("blobs"))) {
      for (Path blob : blobs.filter(Files::isRegularFile).toList()) {
        Files.delete(blob);
      }
    }
  }

  @AfterAll
  static void dropDatabase() {
    if (database != null) {
      database.close();
    }
  }

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) throws IOException {
    database = TestMariaDb.createDatabase();
    registry.add("spring.datasource.url", database::jdbcUrl);
    registry.add("spring.datasource.username", () -> database.server().user());
    registry.add("spring.datasource.password", () -> database.server().password());
    registry.add("mailrestore.data-dir", () -> dir.resolve("data").toString());
    registry.add("mailrestore.lease-seconds", () -> "5");
    registry.add("mailrestore.sources.allowed-roots[0]", () -> allowed.toString());
    registry.add("mailrestore.security.users[0].name", () -> "alice");
    registry.add("mailrestore.security.users[0].password", () -> "{noop}alice-secret");
    registry.add("mailrestore.security.users[0].role", () -> "ADMIN");
    registry.add("mailrestore.security.tokens[0].name", () -> "ci");
    registry.add(
        "mailrestore.security.tokens[0].sha256",
        () -> BlobDigest.ofContent(ADMIN_TOKEN.getBytes(StandardCharsets.UTF_8)).hex());
    registry.add("mailrestore.security.tokens[0].role", () -> "ADMIN");
    registry.add("mailrestore.security.tokens[1].name", () -> "grafana");
    registry.add(
        "mailrestore.security.tokens[1].sha256",
        () -> BlobDigest.ofContent(VIEWER_TOKEN.getBytes(StandardCharsets.UTF_8)).hex());
    registry.add("mailrestore.security.tokens[1].role", () -> "VIEWER");
  }

  record Answer(int status, String body, HttpResponse<String> response) {
    JsonNode json() {
      return Json.MAPPER.readTree(body);
    }

    String header(String name) {
      return response.headers().firstValue(name).orElse(null);
    }
  }

  Answer call(String method, String path, String token, Object body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .timeout(Duration.ofMinutes(2));
    if (token != null) {
      b.header("Authorization", token.startsWith("Basic ") ? token : "Bearer " + token);
    }
    headers.forEach(b::header);
    if (body != null) {
      b.header("Content-Type", "application/json");
      String text = body instanceof String s ? s : Json.MAPPER.writeValueAsString(body);
      b.method(method, HttpRequest.BodyPublishers.ofString(text));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(r.statusCode(), r.body(), r);
  }

  Answer get(String path) throws Exception {
    return call("GET", path, ADMIN_TOKEN, null, Map.of());
  }

  Answer post(String path, Object body) throws Exception {
    return call("POST", path, ADMIN_TOKEN, body, Map.of());
  }

  /** A stream of Server-Sent Events, read line by line as it comes. */
  HttpResponse<java.util.stream.Stream<String>> stream(String path, String token) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofMinutes(2))
            .GET()
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofLines());
  }

  static Map<String, Object> local(Path path) {
    return Map.of("source", Map.of("kind", "backup", "location", path.toString()));
  }

  /**
   * A restore of the backup into accounts of its own (the new-account policy, a suffix of its own):
   * every item is restored whatever the other tests restored before.
   */
  static Map<String, Object> freshCopy(Path path) {
    Map<String, Object> body = new java.util.HashMap<>(local(path));
    body.put("conflictPolicy", "new-account");
    body.put("newAccountSuffix", "-copy-" + System.nanoTime());
    return body;
  }

  JsonNode awaitEnd(String id) throws Exception {
    for (int i = 0; i < 60; i++) {
      Answer a = get("/api/v1/restores/" + id + "/await?timeout=PT5S");
      if (a.status() == 200) {
        return a.json();
      }
      assertThat(a.status()).isEqualTo(202);
    }
    throw new AssertionError("operation " + id + " did not end");
  }

  static void assertFieldError(Answer a, String field) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.header("Content-Type")).startsWith("application/problem+json");
    assertThat(a.json().path("errors").findValuesAsString("field")).as(a.body()).contains(field);
  }

  @Nested
  class Security {
    @Test
    void healthIsOpenAndEverythingElseNeedsCredentials() throws Exception {
      assertThat(call("GET", "/actuator/health/liveness", null, null, Map.of()).status())
          .isEqualTo(200);
      Answer readiness = call("GET", "/actuator/health/readiness", null, null, Map.of());
      assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
      for (String path :
          new String[] {
            "/api/v1/restores", "/actuator/prometheus", "/actuator/info", "/v3/api-docs"
          }) {
        Answer a = call("GET", path, null, null, Map.of());
        assertThat(a.status()).as(path).isEqualTo(401);
        assertThat(a.header("WWW-Authenticate")).contains("Bearer").contains("Basic");
        assertThat(a.json().path("title").asString()).isEqualTo("Unauthorized");
      }
    }

    @Test
    void aWrongTokenOrPasswordIsRefused() throws Exception {
      assertThat(call("GET", "/api/v1/restores", "not-a-token", null, Map.of()).status())
          .isEqualTo(401);
      String wrong =
          "Basic "
              + Base64.getEncoder().encodeToString("alice:wrong".getBytes(StandardCharsets.UTF_8));
      assertThat(call("GET", "/api/v1/restores", wrong, null, Map.of()).status()).isEqualTo(401);
      String right =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
      assertThat(call("GET", "/api/v1/restores", right, null, Map.of()).status()).isEqualTo(200);
    }

    @Test
    void aViewerReadsButCannotStartCancelOrResume() throws Exception {
      assertThat(call("GET", "/api/v1/restores", VIEWER_TOKEN, null, Map.of()).status())
          .isEqualTo(200);
      Answer start = call("POST", "/api/v1/restores", VIEWER_TOKEN, local(small), Map.of());
      assertThat(start.status()).isEqualTo(403);
      assertThat(start.json().path("title").asString()).isEqualTo("Forbidden");
      assertThat(call("POST", "/api/v1/restores/x/cancel", VIEWER_TOKEN, null, Map.of()).status())
          .isEqualTo(403);
      assertThat(call("POST", "/api/v1/restores/x/resume", VIEWER_TOKEN, null, Map.of()).status())
          .isEqualTo(403);
    }

    @Test
    void secretsAreNotReturned() throws Exception {
      Answer a = get("/v3/api-docs");
      assertThat(a.body()).doesNotContain(ADMIN_TOKEN).doesNotContain("alice-secret");
    }
  }

  /**
   * The OpenAPI document checked into docs/ is the one the service publishes. After an API change,
   * rewrite it with {@code ./mvnw test -pl restore-api -Dtest=RestoreApiTest -Dopenapi.write=true}.
   */
  @Nested
  class Document {
    @Test
    void theCheckedInOpenApiDocumentIsTheServedOne() throws Exception {
      Answer a = get("/v3/api-docs");
      assertThat(a.status()).isEqualTo(200);
      String served = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(a.json());
      Path file = Path.of("..", "docs", "openapi.json");
      if (Boolean.getBoolean("openapi.write")) {
        Files.writeString(file, served + "\n");
      }
      assertThat(a.json().path("paths").has("/api/v1/restores/{id}/await")).isTrue();
      assertThat(Files.readString(file).strip())
          .as("docs/openapi.json is stale: rewrite it with -Dopenapi.write=true")
          .isEqualTo(served.strip());
    }
  }

  @Nested
  class BadRequests {
    @Test
    void ownersCannotBeMailedWithoutAnSmtpServer() throws Exception {
      Map<String, Object> body = new java.util.HashMap<>(local(small));
      body.put("notifyOwners", true);
      assertFieldError(post("/api/v1/restores", body), "notifyOwners");
      JsonNode me = call("GET", "/api/v1/me", ADMIN_TOKEN, null, Map.of()).json();
      assertThat(me.path("role").asString()).isEqualTo("ADMIN");
      assertThat(me.path("canNotifyOwners").isBoolean()).isTrue();
      assertThat(me.path("canNotifyOwners").asBoolean()).as("no SMTP server here").isFalse();
    }

    @Test
    void fieldsAreCheckedOneByOne() throws Exception {
      assertFieldError(post("/api/v1/restores", Map.of()), "source");
      assertFieldError(
          post("/api/v1/restores", Map.of("source", Map.of("kind", "ftp"))), "source.kind");
      assertFieldError(
          post("/api/v1/restores", Map.of("source", Map.of("kind", "backup"))), "source.location");
      assertFieldError(
          post(
              "/api/v1/restores",
              Map.of(
                  "source",
                  Map.of("kind", "backup", "location", small.toString()),
                  "clusterSize",
                  -1)),
          "clusterSize");
      assertFieldError(
          post(
              "/api/v1/restores",
              Map.of(
                  "source",
                  Map.of("kind", "backup", "location", small.toString()),
                  "conflictPolicy",
                  "overwrite")),
          "conflictPolicy");
      assertFieldError(
          post(
              "/api/v1/restores",
              Map.of(
                  "source",
                  Map.of(
                      "kind",
                      "maildir",
                      "location",
                      small.toString(),
                      "options",
                      Map.of("domain", "not a domain")))),
          "source.options.domain");
      assertFieldError(get("/api/v1/restores?size=0"), "size");
      assertFieldError(get("/api/v1/restores?state=SLEEPING"), "state");
    }

    @Test
    void malformedJsonIsABadRequest() throws Exception {
      Answer a = post("/api/v1/restores", "{\"source\": ");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.header("Content-Type")).startsWith("application/problem+json");
    }

    @Test
    void pathsOutsideTheAllowedRootsAreRefused() throws Exception {
      String[] escapes = {
        allowed + "/../" + dir.relativize(allowed.getParent()),
        allowed + "/small/../../",
        "/etc",
        allowed.resolve("escape").toString(),
        "relative/path",
        allowed.resolve("does-not-exist").toString()
      };
      for (String path : escapes) {
        Answer a =
            post("/api/v1/restores", Map.of("source", Map.of("kind", "backup", "location", path)));
        assertFieldError(a, "source.location");
      }
      Answer s3 =
          post(
              "/api/v1/restores",
              Map.of(
                  "source",
                  Map.of("kind", "backup", "location", "s3://backups/", "profile", "nope")));
      assertFieldError(s3, "source.profile");
    }

    @Test
    void unknownOperationsAreNotFound() throws Exception {
      for (String path : new String[] {"", "/accounts", "/failures", "/await?timeout=0"}) {
        Answer a = get("/api/v1/restores/no-such-operation" + path);
        assertThat(a.status()).as(path).isEqualTo(404);
        assertThat(a.json().path("detail").asString()).contains("no-such-operation");
      }
      assertThat(post("/api/v1/restores/no-such-operation/cancel", null).status()).isEqualTo(404);
      assertThat(post("/api/v1/restores/no-such-operation/resume", null).status()).isEqualTo(404);
    }
  }

  @Nested
  class Operations {
    @Test
    void aRestoreRunsToTheEndAndIsShownWhole() throws Exception {
      // replace: other tests restore accounts of the same names into this database
      Answer started =
          post(
              "/api/v1/restores",
              Map.of(
                  "source",
                  Map.of("kind", "backup", "location", small.toString()),
                  "conflictPolicy",
                  "replace"));
      assertThat(started.status()).as(started.body()).isEqualTo(201);
      String id = started.json().path("id").asString();
      assertThat(started.header("Location")).isEqualTo("/api/v1/restores/" + id);
      JsonNode ended = awaitEnd(id);
      assertThat(ended.path("state").asString()).isEqualTo("COMPLETED");
      assertThat(ended.path("counts").path("itemsRestored").asLong()).isPositive();
      assertThat(ended.path("rates").path("itemsPerSecond").asDouble()).isPositive();
      assertThat(ended.path("phases").path("dataMs").isNumber()).isTrue();

      JsonNode accounts = get("/api/v1/restores/" + id + "/accounts").json();
      assertThat(accounts.size()).as(accounts.toString()).isEqualTo(2);
      assertThat(accounts.findValuesAsString("state")).containsOnly("RESTORED");
      JsonNode failures = get("/api/v1/restores/" + id + "/failures?size=10").json();
      assertThat(failures.path("items").size()).isZero();
      assertThat(failures.path("hasMore").asBoolean()).isFalse();

      JsonNode list = get("/api/v1/restores?state=COMPLETED&size=100").json();
      assertThat(list.path("items").findValuesAsString("id")).contains(id);
      JsonNode running = get("/api/v1/restores?state=RUNNING").json();
      assertThat(running.path("items").findValuesAsString("id")).doesNotContain(id);

      Answer cancel = post("/api/v1/restores/" + id + "/cancel", null);
      assertThat(cancel.status()).isEqualTo(409);
      Answer resume = post("/api/v1/restores/" + id + "/resume", null);
      assertThat(resume.status()).isEqualTo(409);
      assertThat(resume.json().path("detail").asString()).contains("new operation");

      Answer metrics = get("/actuator/prometheus");
      assertThat(metrics.status()).isEqualTo(200);
      assertThat(metrics.body()).contains("mailrestore_items_total").contains("hikaricp_");
      assertThat(get("/actuator/info").json().path("build").path("version").asString())
          .isNotBlank();
    }

    @Test
    void anIdempotencyKeyStartsOneRestoreOnly() throws Exception {
      Map<String, String> key = Map.of("Idempotency-Key", "nightly-2026-11-21");
      Answer first = call("POST", "/api/v1/restores", ADMIN_TOKEN, local(small), key);
      Answer again = call("POST", "/api/v1/restores", ADMIN_TOKEN, local(small), key);
      assertThat(first.status()).isEqualTo(201);
      assertThat(again.status()).isEqualTo(200);
      assertThat(again.json().path("id").asString()).isEqualTo(first.json().path("id").asString());
      Answer other = call("POST", "/api/v1/restores", ADMIN_TOKEN, local(large), key);
      assertThat(other.status()).isEqualTo(422);
      assertThat(other.json().path("detail").asString()).contains("another request");
      awaitEnd(first.json().path("id").asString());
    }

    @Test
    void aRunningRestoreIsCancelledThenResumedToTheEnd() throws Exception {
      Map<String, Object> body =
          Map.of(
              "source",
              Map.of("kind", "backup", "location", large.toString()),
              "clusterSize",
              50,
              "concurrentAccounts",
              1,
              "conflictPolicy",
              "replace");
      Answer started = post("/api/v1/restores", body);
      String id = started.json().path("id").asString();
      for (int i = 0; i < 200; i++) {
        JsonNode v = get("/api/v1/restores/" + id).json();
        if (v.path("counts").path("itemsRestored").asLong() > 0) {
          break;
        }
        Thread.sleep(50);
      }
      Answer cancel = post("/api/v1/restores/" + id + "/cancel", null);
      assertThat(cancel.status()).as(cancel.body()).isIn(200, 202);
      JsonNode cancelled = awaitEnd(id);
      assertThat(cancelled.path("state").asString()).isEqualTo("CANCELLED");
      long before = cancelled.path("counts").path("itemsRestored").asLong();

      Answer resumed = post("/api/v1/restores/" + id + "/resume", null);
      assertThat(resumed.status()).as(resumed.body()).isEqualTo(202);
      JsonNode done = awaitEnd(id);
      assertThat(done.path("state").asString()).isEqualTo("COMPLETED");
      assertThat(done.path("counts").path("itemsRestored").asLong()).isGreaterThan(before);
      // Nothing lost, nothing twice: the store equals the backup (the verifier counts items too).
      VerifyReport report =
          restores.verify(BackupSourceKind.local(large), null, Verifier.Options.defaults());
      assertThat(report.differences()).isEmpty();
    }
  }

  /** Inspect, dry run, verify and the progress stream: the REST the console and scripts use. */
  @Nested
  class Planning {

    @Test
    void inspectTellsWhatASourceHoldsToAdminsOnly() throws Exception {
      Answer a = post("/api/v1/sources/inspect", local(small));
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      JsonNode accounts = a.json().path("accounts");
      assertThat(accounts.size()).isGreaterThanOrEqualTo(2);
      assertThat(a.json().path("items").asLong()).isPositive();
      assertThat(accounts.get(0).path("itemsByType").path("message").asLong()).isPositive();
      assertThat(a.json().path("earliest").asString()).isNotEmpty();

      assertThat(
              call("POST", "/api/v1/sources/inspect", VIEWER_TOKEN, local(small), Map.of())
                  .status())
          .as("a viewer may not open sources")
          .isEqualTo(403);
      assertFieldError(
          post("/api/v1/sources/inspect", local(allowed.resolve("no-such-backup"))),
          "source.location");
      Path notABackup = Files.createDirectories(allowed.resolve("not-a-backup"));
      Answer unreadable = post("/api/v1/sources/inspect", local(notABackup));
      assertThat(unreadable.status()).as(unreadable.body()).isEqualTo(422);
      assertThat(unreadable.json().path("detail").asString()).contains("not-a-backup");
      assertFieldError(post("/api/v1/sources/inspect", local(Path.of("/etc"))), "source.location");
      assertFieldError(post("/api/v1/sources/inspect", Map.of()), "source");
    }

    @Test
    void aDryRunSaysWhatARestoreWouldDoAndWritesNothing() throws Exception {
      int before = get("/api/v1/restores?size=1000").json().path("items").size();
      Answer a =
          post(
              "/api/v1/restores/dry-run",
              Map.of(
                  "source",
                  Map.of("kind", "backup", "location", small.toString()),
                  "conflictPolicy",
                  "new-account"));
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      JsonNode accounts = a.json().path("accounts");
      assertThat(accounts.size()).isGreaterThanOrEqualTo(2);
      for (JsonNode account : accounts) {
        assertThat(account.path("action").asString()).isIn("CREATE", "MERGE");
        assertThat(account.path("into").asString()).contains("-restored@");
      }
      assertThat(a.json().path("bytes").asLong()).isPositive();
      assertThat(get("/api/v1/restores?size=1000").json().path("items").size())
          .as("no operation was started")
          .isEqualTo(before);
      assertThat(
              call("POST", "/api/v1/restores/dry-run", VIEWER_TOKEN, local(small), Map.of())
                  .status())
          .isEqualTo(403);
    }

    @Test
    void anOperationIsVerifiedAsItWasRestored() throws Exception {
      // Into accounts of its own: the other tests restore backups of the same generated names.
      Answer started = post("/api/v1/restores", freshCopy(small));
      assertThat(started.status()).as(started.body()).isIn(200, 201);
      String id = started.json().path("id").asString();
      assertThat(awaitEnd(id).path("state").asString()).isIn("COMPLETED", "PARTIAL");
      Answer v = post("/api/v1/restores/" + id + "/verify", null);
      assertThat(v.status()).as(v.body()).isEqualTo(200);
      assertThat(v.json().path("differenceCount").asLong()).as(v.body()).isZero();
      assertThat(v.json().path("items").asLong()).isPositive();
      String one =
          post("/api/v1/sources/inspect", local(small))
              .json()
              .path("accounts")
              .get(0)
              .path("name")
              .asString();
      Answer single =
          post("/api/v1/restores/" + id + "/verify", Map.of("accounts", java.util.List.of(one)));
      assertThat(single.json().path("accounts").asInt()).as(single.body()).isEqualTo(1);
      assertThat(
              call("POST", "/api/v1/restores/" + id + "/verify", VIEWER_TOKEN, null, Map.of())
                  .status())
          .isEqualTo(403);
      assertThat(post("/api/v1/restores/no-such-operation/verify", null).status()).isEqualTo(404);
    }

    @Test
    void progressStreamsAsServerSentEventsToViewersUntilTheEnd() throws Exception {
      Map<String, Object> paced = freshCopy(large);
      paced.put("maxItemsPerSecond", 3000);
      String id = post("/api/v1/restores", paced).json().path("id").asString();
      HttpResponse<java.util.stream.Stream<String>> r =
          stream("/api/v1/restores/" + id + "/events", VIEWER_TOKEN);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
      java.util.List<String> events = new java.util.ArrayList<>();
      java.util.List<Long> restored = new java.util.ArrayList<>();
      String event = null;
      try (var lines = r.body()) {
        for (String line : (Iterable<String>) lines::iterator) {
          if (line.startsWith("event:")) {
            event = line.substring(6).strip();
            events.add(event);
          } else if (line.startsWith("data:")) {
            JsonNode view = Json.MAPPER.readTree(line.substring(5));
            assertThat(view.path("id").asString()).isEqualTo(id);
            restored.add(view.path("counts").path("itemsRestored").asLong());
            if ("end".equals(event)) {
              assertThat(view.path("state").asString()).isIn("COMPLETED", "PARTIAL");
            }
          }
        }
      }
      assertThat(events).as("the stream closed after its end event").endsWith("end");
      assertThat(events.stream().filter("progress"::equals).count())
          .as("progress while it ran: %s", events)
          .isGreaterThanOrEqualTo(2);
      assertThat(restored).as("the counts only grow").isSorted();
      assertThat(restored.get(restored.size() - 1)).isPositive();
      assertThat(
              call("GET", "/api/v1/restores/" + id + "/events", "not-a-token", null, Map.of())
                  .status())
          .isEqualTo(401);
    }

    @Test
    void aPageOfTheListStreamsWhileItsOperationsRun() throws Exception {
      Map<String, Object> paced = freshCopy(large);
      paced.put("maxItemsPerSecond", 2000);
      String id = post("/api/v1/restores", paced).json().path("id").asString();
      HttpResponse<java.util.stream.Stream<String>> r =
          stream("/api/v1/restores/events?state=RUNNING&size=50", VIEWER_TOKEN);
      assertThat(r.statusCode()).isEqualTo(200);
      java.util.List<Long> restored = new java.util.ArrayList<>();
      try (var lines = r.body()) {
        String event = null;
        for (String line : (Iterable<String>) lines::iterator) {
          if (line.startsWith("event:")) {
            event = line.substring(6).strip();
          } else if (line.startsWith("data:")) {
            assertThat(event).isEqualTo("page");
            for (JsonNode op : Json.MAPPER.readTree(line.substring(5)).path("items")) {
              assertThat(op.path("state").asString()).isEqualTo("RUNNING");
              if (op.path("id").asString().equals(id)) {
                restored.add(op.path("counts").path("itemsRestored").asLong());
              }
            }
            if (restored.stream().distinct().count() >= 3) {
              break; // the page followed the operation as it ran: enough
            }
          }
        }
      }
      assertThat(restored).as("the operation's counts on the page, as they grew").isSorted();
      assertThat(restored.stream().distinct().count()).isGreaterThanOrEqualTo(3);
      post("/api/v1/restores/" + id + "/cancel", null);
      assertThat(
              call("GET", "/api/v1/restores/events?page=-1", VIEWER_TOKEN, null, Map.of()).status())
          .isEqualTo(400);
    }
  }

  /**
   * The console in a real browser (Debian's chromium through its chromedriver): an admin inspects,
   * dry-runs, starts a restore of two accounts and reads its report; a viewer sees no action and is
   * refused one forced; a wrong token is refused; no console error, no CSP violation. Screenshots
   * go to target/console/.
   */
  @Nested
  class Console {

    private org.openqa.selenium.chrome.ChromeDriver browser;
    private Path downloads;

    @org.junit.jupiter.api.BeforeEach
    void openBrowser() throws IOException {
      org.junit.jupiter.api.Assumptions.assumeTrue(
          Files.isExecutable(Path.of("/usr/bin/chromium"))
              && Files.isExecutable(Path.of("/usr/bin/chromedriver")),
          "chromium and chromium-driver are not installed: .ci/run installs them");
      downloads = Files.createDirectories(dir.resolve("downloads-" + System.nanoTime()));
      var options = new org.openqa.selenium.chrome.ChromeOptions();
      options.setBinary("/usr/bin/chromium");
      options.addArguments(
          "--headless=new",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--disable-dev-shm-usage",
          "--window-size=1280,800",
          "--user-data-dir=" + dir.resolve("chromium-" + System.nanoTime()));
      options.setExperimentalOption(
          "prefs",
          Map.of(
              "download.default_directory",
              downloads.toString(),
              "download.prompt_for_download",
              false));
      var logging = new org.openqa.selenium.logging.LoggingPreferences();
      logging.enable(org.openqa.selenium.logging.LogType.BROWSER, java.util.logging.Level.ALL);
      options.setCapability("goog:loggingPrefs", logging);
      var service =
          new org.openqa.selenium.chrome.ChromeDriverService.Builder()
              .usingDriverExecutable(new java.io.File("/usr/bin/chromedriver"))
              .build();
      browser = new org.openqa.selenium.chrome.ChromeDriver(service, options);
    }

    @org.junit.jupiter.api.AfterEach
    void closeBrowser() {
      if (browser != null) {
        browser.quit();
      }
    }

    private org.openqa.selenium.WebElement await(String css) {
      return new org.openqa.selenium.support.ui.WebDriverWait(browser, Duration.ofSeconds(60))
          .until(d -> {
            var found = d.findElements(org.openqa.selenium.By.cssSelector(css));
            return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
          });
    }

    private void awaitText(String css, String text) {
      new org.openqa.selenium.support.ui.WebDriverWait(browser, Duration.ofSeconds(120))
          .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
          .until(d -> {
            var found = d.findElements(org.openqa.selenium.By.cssSelector(css));
            return !found.isEmpty() && found.get(0).getText().contains(text);
          });
    }

    private void signIn(String credential) {
      browser.get("http://localhost:" + port + "/");
      await("#credential").sendKeys(credential);
      browser.findElement(org.openqa.selenium.By.cssSelector("#sign-in-form button")).click();
    }

    private void screenshot(String name) throws IOException {
      Path out = Files.createDirectories(Path.of("target", "console"));
      byte[] png = browser.getScreenshotAs(org.openqa.selenium.OutputType.BYTES);
      Files.write(out.resolve(name + ".png"), png);
    }

    /** No error in the page's console but those {@code expected} (a refusal the test forced). */
    private void noErrorsInThePage(String... expected) {
      var severe =
          browser.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll().stream()
              .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
              .map(org.openqa.selenium.logging.LogEntry::getMessage)
              .filter(m -> java.util.Arrays.stream(expected).noneMatch(m::contains))
              .toList();
      assertThat(severe).as("the page's console").isEmpty();
      assertThat(((Number) browser.executeScript("return window.cspViolations;")).intValue())
          .as("CSP violations")
          .isZero();
    }

    @Test
    void anAdminInspectsDryRunsStartsAndReadsTheReport() throws Exception {
      signIn(ADMIN_TOKEN);
      await("#nav-start").click();
      await("#source-location").sendKeys(small.toString());
      browser.findElement(org.openqa.selenium.By.id("inspect")).click();
      awaitText("#inspection-summary", "accounts");
      assertThat(browser.findElement(org.openqa.selenium.By.id("inspection")).getText())
          .as("nothing shown as null")
          .doesNotContainPattern("\\bnull\\b");
      var boxes = browser.findElements(org.openqa.selenium.By.cssSelector("input[data-account]"));
      assertThat(boxes.size()).isGreaterThanOrEqualTo(2);
      boxes.get(0).click();
      boxes.get(1).click();
      browser
          .findElement(org.openqa.selenium.By.cssSelector("#policy option[value='new-account']"))
          .click();
      // As of a date: the end of the backup's time range, in the browser's time zone.
      browser.executeScript("document.getElementById('as-of').value = '2030-01-01T00:00:00';");
      screenshot("start");
      Number unlabelled =
          (Number)
              browser.executeScript(
                  "return [...document.querySelectorAll('input, select')]"
                      + ".filter(e => e.offsetParent !== null && e.labels.length === 0"
                      + " && !e.getAttribute('aria-label')).length;");
      assertThat(unlabelled.intValue()).as("every visible control has a label").isZero();
      browser.findElement(org.openqa.selenium.By.id("dry-run")).click();
      awaitText("#plan-summary", "2 accounts");
      assertThat(browser.findElement(org.openqa.selenium.By.id("plan")).getText())
          .contains("-restored@");
      // Telling the owners needs an SMTP server, which this service has not: not offered.
      var owners =
          browser.findElement(org.openqa.selenium.By.cssSelector("#notify option[value='owners']"));
      assertThat(owners.isEnabled()).isFalse();
      assertThat(owners.getText()).contains("no SMTP server");
      browser
          .findElement(org.openqa.selenium.By.cssSelector("#notify option[value='none']"))
          .click();
      browser.findElement(org.openqa.selenium.By.id("start")).click();
      awaitText("#op-state", "COMPLETED");
      await("#download-csv").click();
      Path csv = null;
      for (int i = 0; i < 100 && csv == null; i++) {
        try (var files = Files.list(downloads)) {
          csv = files.filter(f -> f.toString().endsWith(".csv")).findFirst().orElse(null);
        }
        Thread.sleep(100);
      }
      assertThat(csv).as("the CSV was downloaded").isNotNull();
      assertThat(Files.readString(csv))
          .startsWith("account,kind,itemId,phase,reason,location,detail");
      screenshot("operation");
      browser.findElement(org.openqa.selenium.By.id("verify")).click();
      awaitText("#verify-summary", "Verified: no differences");
      await("a[href='#/operations']").click();
      awaitText("#view table", "COMPLETED");
      assertThat(
              browser
                  .findElement(org.openqa.selenium.By.cssSelector("#view .table-wrap"))
                  .getDomAttribute("data-source"))
          .as("the list follows its page's stream")
          .isEqualTo("stream");
      screenshot("operations");
      noErrorsInThePage();
    }

    @Test
    void aViewerSeesNoActionAndIsRefusedOneForced() throws Exception {
      Answer started = post("/api/v1/restores", local(small));
      String id = started.json().path("id").asString();
      awaitEnd(id);
      signIn(VIEWER_TOKEN);
      awaitText("#who", "viewer");
      assertThat(browser.findElement(org.openqa.selenium.By.id("nav-start")).isDisplayed())
          .isFalse();
      browser.get("http://localhost:" + port + "/#/operations/" + id);
      awaitText("#op-state", "COMPLETED");
      assertThat(browser.findElements(org.openqa.selenium.By.id("cancel"))).isEmpty();
      assertThat(browser.findElements(org.openqa.selenium.By.id("apply-pace"))).isEmpty();
      Object status =
          browser.executeAsyncScript(
              "const done = arguments[arguments.length - 1];"
                  + "fetch('/api/v1/restores/"
                  + id
                  + "/cancel', {method: 'POST', headers:"
                  + " {Authorization: sessionStorage.getItem('mailrestore.credential')}})"
                  + ".then(r => done(r.status));");
      assertThat(((Number) status).intValue()).as("a forced action").isEqualTo(403);
      noErrorsInThePage(
          "/cancel - Failed to load resource: the server responded with a status of 403");
    }

    @Test
    void anOperationWithAMissingBlobShowsPartialAndTheItemWithItsReason() throws Exception {
      String id = post("/api/v1/restores", local(broken)).json().path("id").asString();
      assertThat(awaitEnd(id).path("state").asString()).isEqualTo("PARTIAL");
      signIn(ADMIN_TOKEN);
      awaitText("#who", "admin");
      browser.get("http://localhost:" + port + "/#/operations/" + id);
      awaitText("#op-state", "PARTIAL");
      awaitText("#report-table", "BLOB_MISSING");
      new org.openqa.selenium.support.ui.Select(await("#reason-filter"))
          .selectByValue("BLOB_MISSING");
      String report = await("#report-table").getText();
      assertThat(report).contains("BLOB_MISSING").doesNotContain("NOT_CARRIED");
      screenshot("partial");
      noErrorsInThePage();
    }

    @Test
    void cancelResumeAndPaceOnAPacedOperation() throws Exception {
      Map<String, Object> paced = freshCopy(large);
      paced.put("maxItemsPerSecond", 200);
      String id = post("/api/v1/restores", paced).json().path("id").asString();
      signIn(ADMIN_TOKEN);
      awaitText("#who", "admin");
      browser.get("http://localhost:" + port + "/#/operations/" + id);
      awaitText("#op-state", "RUNNING");
      var items = await("#pace-items");
      items.clear();
      items.sendKeys("400");
      browser.findElement(org.openqa.selenium.By.id("apply-pace")).click();
      awaitText("#op-message", "Pace: 400 items/s");
      assertThat(
              get("/api/v1/restores/" + id + "/pace").json().path("maxItemsPerSecond").asDouble())
          .isEqualTo(400.0);
      browser.findElement(org.openqa.selenium.By.id("cancel")).click();
      awaitText("#op-state", "CANCELLED");
      browser.findElement(org.openqa.selenium.By.id("resume")).click();
      awaitText("#op-message", "Resumed");
      items = await("#pace-items");
      items.clear();
      browser.findElement(org.openqa.selenium.By.id("apply-pace")).click();
      awaitText("#op-message", "no bound items/s");
      awaitText("#op-state", "COMPLETED");
      noErrorsInThePage();
    }

    @Test
    void thePageFitsAPhone() throws Exception {
      browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
      signIn(ADMIN_TOKEN);
      awaitText("#who", "admin");
      awaitText("#view h2", "Operations");
      Number overflow =
          (Number)
              browser.executeScript(
                  "return document.documentElement.scrollWidth - window.innerWidth;");
      assertThat(overflow.intValue())
          .as("no sideways scrolling of the page")
          .isLessThanOrEqualTo(0);
      screenshot("phone");
      noErrorsInThePage();
    }

    @Test
    void aWrongTokenIsRefused() throws Exception {
      signIn("not-a-token");
      awaitText("#sign-in-error", "refused");
      assertThat(browser.findElement(org.openqa.selenium.By.id("view")).isDisplayed()).isFalse();
    }
  }
}
