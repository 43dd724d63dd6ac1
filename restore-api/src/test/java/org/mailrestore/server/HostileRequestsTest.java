package org.mailrestore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Json;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Every probe of an outside tester against the running service, sent byte for byte over a socket
 * (no client library smoothing them): each is answered with its documented status and a problem
 * detail, and none creates an operation. The probes that held before stay here so they keep
 * holding.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HostileRequestsTest {

  static final String ADMIN = "hostile-admin-token";
  static final String VIEWER = "hostile-viewer-token";

  static TestDatabase database;
  static Path dir;
  static Path backup;

  @LocalServerPort int port;

  @BeforeAll
  static void fixtures() throws IOException {
    dir = ScratchSpace.directory("mailrestore-hostile");
    backup = dir.resolve("backups/small");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(10).withLargeRate(0), backup);
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
    registry.add("mailrestore.assist-interval", () -> "1h"); // nothing runs what gets through
    ServiceProperties.token(registry, 0, "admin", ADMIN, "ADMIN");
    ServiceProperties.token(registry, 1, "viewer", VIEWER, "VIEWER");
  }

  record Answer(int status, String headers, String body) {
    String contentType() {
      for (String line : headers.split("\r\n")) {
        if (line.toLowerCase(Locale.ROOT).startsWith("content-type:")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
      return "";
    }

    JsonNode json() {
      return Json.MAPPER.readTree(body);
    }
  }

  /**
   * Sends {@code head} (request line and headers, CRLF-separated) then {@code body} as they are.
   */
  Answer raw(String head, byte[] body) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        out.write(body);
      }
      out.flush();
      return read(socket.getInputStream());
    }
  }

  /** Reads one answer: up to its length, its last chunk, or the end of the connection. */
  private static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    int headerEnd = -1;
    long expected = -1;
    boolean chunked = false;
    byte[] buf = new byte[8192];
    int n;
    try {
      while ((n = in.read(buf)) > 0) {
        all.write(buf, 0, n);
        String text = all.toString(StandardCharsets.ISO_8859_1);
        if (headerEnd < 0 && (headerEnd = text.indexOf("\r\n\r\n")) >= 0) {
          String lower = text.substring(0, headerEnd).toLowerCase(Locale.ROOT);
          chunked = lower.contains("transfer-encoding: chunked");
          int cl = lower.indexOf("content-length:");
          if (cl >= 0) {
            expected = Long.parseLong(lower.substring(cl + 15, lower.indexOf("\r\n", cl)).strip());
          }
        }
        if (headerEnd >= 0
            && ((expected >= 0 && all.size() >= headerEnd + 4 + expected)
                || (chunked && text.endsWith("0\r\n\r\n")))) {
          break;
        }
      }
    } catch (java.net.SocketException e) {
      // reset after the answer: the server closed without reading the rest of the body
    }
    String text = all.toString(StandardCharsets.UTF_8);
    int split = text.indexOf("\r\n\r\n");
    String headers = split < 0 ? text : text.substring(0, split);
    String body = split < 0 ? "" : text.substring(split + 4);
    if (chunked) {
      body = unchunk(body);
    }
    int status = Integer.parseInt(headers.substring(9, 12));
    return new Answer(status, headers, body);
  }

  private static String unchunk(String chunked) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (at < chunked.length()) {
      int eol = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, eol).strip(), 16);
      if (size == 0) {
        break;
      }
      out.append(chunked, eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    return out.toString();
  }

  Answer request(String method, String target, String token, String extraHeaders, String json)
      throws IOException {
    byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
    String head =
        method
            + " "
            + target
            + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
            + (json == null
                ? ""
                : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n")
            + extraHeaders
            + "\r\n";
    return raw(head, body);
  }

  Answer post(String json) throws IOException {
    return request("POST", "/api/v1/restores", ADMIN, "", json);
  }

  String body(String extra) {
    return "{\"source\":{\"kind\":\"backup\",\"location\":\""
        + backup
        + "\"}"
        + (extra.isEmpty() ? "" : "," + extra)
        + "}";
  }

  static void assertProblem(Answer a, int status) {
    assertThat(a.status()).as(a.headers() + "\n" + a.body()).isEqualTo(status);
    assertThat(a.contentType()).as(a.headers()).startsWith("application/problem+json");
    JsonNode json = a.json();
    assertThat(json.path("status").asInt()).isEqualTo(status);
    assertThat(json.path("title").asString()).isNotBlank();
    assertThat(json.path("detail").asString()).isNotBlank();
  }

  static void assertFieldError(Answer a, String field) {
    assertProblem(a, 400);
    assertThat(a.json().path("errors").findValuesAsString("field")).as(a.body()).contains(field);
  }

  @Test
  void misspeltWronglyTypedDuplicatedOrNullFieldsAreRefusedNamingTheField() throws Exception {
    assertFieldError(post(body("\"skipAliasez\":true")), "skipAliasez");
    assertFieldError(post(body("\"concurrentAccounts\":1.5")), "concurrentAccounts");
    assertFieldError(post(body("\"concurrentAccounts\":\"2\"")), "concurrentAccounts");
    assertFieldError(post(body("\"skipAliases\":1")), "skipAliases");
    assertFieldError(post(body("\"skipAliases\":\"true\"")), "skipAliases");
    assertFieldError(post(body("\"conflictPolicy\":5")), "conflictPolicy");
    assertFieldError(post(body("\"clusterSize\":5,\"clusterSize\":6")), "clusterSize");
    assertFieldError(post(body("\"accounts\":[null]")), "accounts[0]");
    assertFieldError(post(body("\"domains\":[null]")), "domains[0]");
    assertFieldError(post(body("\"items\":[null]")), "items[0]");
    assertFieldError(
        post("{\"source\":{\"kind\":\"backup\",\"location\":\"x\",\"extra\":1}}"), "source.extra");
    assertFieldError(post(body("") + " {}"), "body"); // trailing content
    assertFieldError(post("{\"source\":"), "body");
  }

  @Test
  void instantsAreIsoStringsInsideTheDocumentedRange() throws Exception {
    assertFieldError(post(body("\"asOf\":1e300")), "asOf");
    assertFieldError(post(body("\"asOf\":1700000000")), "asOf");
    assertFieldError(post(body("\"undeleteFrom\":\"yesterday\"")), "undeleteFrom");
    Answer farPast = post(body("\"asOf\":\"-999999999-01-01T00:00:00Z\""));
    assertProblem(farPast, 400);
    assertThat(farPast.json().path("detail").asString()).contains("1970").contains("9999");
    assertProblem(post(body("\"asOf\":\"1969-12-31T23:59:59Z\"")), 400);
    Answer fine = post(body("\"asOf\":\"2026-01-31T00:00:00Z\""));
    assertThat(fine.status()).as(fine.body()).isEqualTo(201);
  }

  @Test
  void listsAreBounded() throws Exception {
    StringBuilder names = new StringBuilder("\"accounts\":[");
    for (int i = 0; i <= 10_000; i++) {
      names.append(i == 0 ? "" : ",").append("\"u").append(i).append("@example.org\"");
    }
    assertFieldError(post(body(names.append(']').toString())), "accounts");
  }

  @Test
  void aBodyOverTheLimitIsRefusedBeforeItIsRead() throws Exception {
    // 50 MB announced, a few bytes sent: the answer comes without the rest.
    String head =
        "POST /api/v1/restores HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + ADMIN
            + "\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n";
    long started = System.nanoTime();
    Answer announced = raw(head, "{\"accounts\":[".getBytes(StandardCharsets.UTF_8));
    assertProblem(announced, 413);
    assertThat(System.nanoTime() - started).isLessThan(15_000_000_000L);

    // Sent in chunks, no length announced: reading stops at the limit.
    byte[] chunk = " ".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream chunked = new ByteArrayOutputStream();
    long chunks = ServerSettings.ApiSettings.DEFAULT_MAX_BODY_SIZE.toBytes() / chunk.length + 16;
    for (int i = 0; i < chunks; i++) { // 1 MB past the limit
      chunked.write(("10000\r\n").getBytes(StandardCharsets.US_ASCII));
      chunked.write(chunk);
      chunked.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    chunked.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    Answer streamed =
        raw(
            "POST /api/v1/restores HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Authorization: Bearer "
                + ADMIN
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            chunked.toByteArray());
    assertProblem(streamed, 413);
  }

  @Test
  void urlsTheFirewallOrTheContainerRefuseAreProblemDetails() throws Exception {
    for (String target :
        new String[] {
          "/api/v1/restores;jsessionid=1",
          "/api/v1/restores/a%2Fb",
          "/api/v1/restores/a%00b",
          "/api/v1/restores/%",
          "/api/v1/restores/%2e%2e/%2e%2e/actuator/info",
          "/api/v1//restores"
        }) {
      assertProblem(request("GET", target, VIEWER, "", null), 400);
    }
    // A NUL byte in the request line itself.
    Answer nul =
        raw(
            "GET /api/v1/restores\0 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
            null);
    assertProblem(nul, 400);
  }

  @Test
  void unknownAddressesWrongMethodsAndMediaTypesAreProblemDetails() throws Exception {
    assertProblem(request("GET", "/api/v1/nothing", VIEWER, "", null), 404);
    assertProblem(request("DELETE", "/api/v1/restores", ADMIN, "", null), 405);
    Answer text =
        raw(
            "POST /api/v1/restores HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Authorization: Bearer "
                + ADMIN
                + "\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n\r\n",
            "x".getBytes(StandardCharsets.US_ASCII));
    assertProblem(text, 415);
    assertProblem(request("GET", "/actuator/env", ADMIN, "", null), 404);
  }

  @Test
  void nothingSentIsEchoedBackUnbounded() throws Exception {
    String longId = "a".repeat(5000);
    Answer a = request("GET", "/api/v1/restores/" + longId, VIEWER, "", null);
    assertProblem(a, 404);
    assertThat(a.body().length()).isLessThan(1000);
    Answer key =
        request("POST", "/api/v1/restores", ADMIN, "Idempotency-Key: k\u00e9y\r\n", body(""));
    assertFieldError(key, "idempotencyKey");
  }

  @Test
  void headIsAReadAndHealthDetailsStayPrivate() throws Exception {
    Answer head = request("HEAD", "/api/v1/restores", VIEWER, "", null);
    assertThat(head.status()).isEqualTo(200);
    Answer details = request("GET", "/actuator/health/db", null, "", null);
    assertProblem(details, 404);
    Answer health = request("GET", "/actuator/health", null, "", null);
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.body()).doesNotContain("components").doesNotContain("database");
  }

  @Test
  void rolesAndCredentialsStillHold() throws Exception {
    assertProblem(request("GET", "/api/v1/restores", null, "", null), 401);
    assertProblem(request("GET", "/api/v1/restores", "wrong", "", null), 401);
    assertProblem(request("POST", "/api/v1/restores", VIEWER, "", body("")), 403);
    assertProblem(request("GET", "/actuator/prometheus", null, "", null), 401);
    Answer outside = post("{\"source\":{\"kind\":\"backup\",\"location\":\"/etc\"}}");
    assertFieldError(outside, "source.location");
  }

  @Test
  void pagingParametersAreBoundedOnEveryPagedEndpoint() throws Exception {
    Answer created = post(body(""));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String id = created.json().path("id").asString();
    for (String paged : new String[] {"/api/v1/restores", "/api/v1/restores/" + id + "/failures"}) {
      for (String page : new String[] {"21474837", "2147483647", "-1", "99999999999", "x"}) {
        assertFieldError(
            request("GET", paged + "?page=" + page + "&size=100", VIEWER, "", null), "page");
      }
      for (String size : new String[] {"0", "-1", "1001", "2147483647", "x"}) {
        assertFieldError(request("GET", paged + "?size=" + size, VIEWER, "", null), "size");
      }
      Answer last = request("GET", paged + "?page=1000000&size=500", VIEWER, "", null);
      assertThat(last.status()).as(last.body()).isEqualTo(200);
      assertThat(last.json().path("items").size()).isZero();
    }
  }

  @Test
  void numbersTooLargeForTheirFieldNameTheFieldNotTheSyntax() throws Exception {
    Answer items = post(body("\"items\":[99999999999]"));
    assertFieldError(items, "items[0]");
    assertThat(items.json().path("detail").asString()).doesNotContain("not valid JSON");
    assertFieldError(post(body("\"concurrentAccounts\":99999999999")), "concurrentAccounts");
    assertFieldError(post(body("\"clusterSize\":1e400")), "clusterSize");
  }

  @Test
  void s3LocationsAreOneBucketAndAPlainPrefix() throws Exception {
    for (String location :
        new String[] {
          "s3://bucket/../other/prefix",
          "s3://bucket/a/./b",
          "s3://bucket/a/%2e%2e/b",
          "s3://user@bucket/prefix",
          "s3://bu@cket/prefix",
          "s3://bucket:9000/prefix",
          "s3://../prefix",
          "s3://bucket/a//b"
        }) {
      Answer a = post("{\"source\":{\"kind\":\"backup\",\"location\":\"" + location + "\"}}");
      assertFieldError(a, "source.location");
    }
  }

  @Test
  void theErrorPageAndTheHealthEndpointAnswerAsDocumented() throws Exception {
    assertProblem(request("GET", "/error", null, "", null), 404);
    assertProblem(request("GET", "/error", ADMIN, "", null), 404);
    assertProblem(request("POST", "/error", ADMIN, "", "{}"), 404);
    Answer wrongToken = request("GET", "/actuator/health", "wrong", "", null);
    assertThat(wrongToken.status()).as(wrongToken.body()).isEqualTo(200);
    assertThat(wrongToken.json().path("status").asString()).isEqualTo("UP");
    for (String token : new String[] {null, "wrong", VIEWER}) {
      Answer health = request("GET", "/actuator/health", token, "", null);
      assertThat(health.body())
          .as("health as " + token)
          .doesNotContain(dir.toString())
          .doesNotContain("\"path\"")
          .doesNotContain("diskSpace");
    }
  }

  @Test
  void everyProblemNamesItsType() throws Exception {
    Answer method = request("DELETE", "/api/v1/restores", ADMIN, "", null);
    Answer media =
        raw(
            "POST /api/v1/restores HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Authorization: Bearer "
                + ADMIN
                + "\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n\r\n",
            "x".getBytes(StandardCharsets.US_ASCII));
    for (Answer a :
        new Answer[] {
          method,
          media,
          request("GET", "/api/v1/nothing", VIEWER, "", null),
          request("GET", "/api/v1/restores", null, "", null),
          request("POST", "/api/v1/restores", VIEWER, "", body("")),
          post(body("\"skipAliasez\":true")),
          request("GET", "/api/v1/restores/a%2Fb", VIEWER, "", null)
        }) {
      assertThat(a.json().path("type").asString()).as(a.headers() + "\n" + a.body()).isNotBlank();
    }
  }
}
