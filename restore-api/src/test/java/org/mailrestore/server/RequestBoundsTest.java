package org.mailrestore.server;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Parsed;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.RestoreRequestBody;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * What the API accepts, the database holds and the engine runs (issue 41): the bounds are read from
 * the request's own declarations ({@code @Size}, {@code @Max}, {@code @Pattern} of {@link
 * RestoreRequestBody}, its location bound), and for each field a request that takes it to its
 * bound, then one that takes every field there at once, is posted to the running service: each is
 * answered 201 within the default body limit, and its operation runs to an end without a database
 * or internal error.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RequestBoundsTest {

  static final String ADMIN = "bounds-admin-token";

  static TestDatabase database;
  static Path dir;
  static Path allowed;
  static Path backup;
  static List<String> realAccounts;

  @LocalServerPort int port;

  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void fixtures() throws IOException {
    dir = ScratchSpace.directory("mailrestore-bounds");
    allowed = Files.createDirectories(dir.resolve("backups"));
    // The backup as deep as the longest location allows: its path has RestoreRequestBody's bound.
    Path deep = allowed;
    int room = RestoreRequestBody.MAX_LOCATION - allowed.toString().length();
    while (room > 1) {
      int length = Math.min(200, room - 1);
      deep = deep.resolve("d".repeat(length));
      room -= length + 1;
    }
    assertThat(deep.toString()).hasSize(RestoreRequestBody.MAX_LOCATION);
    backup = deep;
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(30).withLargeRate(0), backup);
    realAccounts = new ArrayList<>();
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        if (reader.account(id) instanceof Parsed.Ok<Account>(Account account, String at)) {
          realAccounts.add(account.name());
        }
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
    ServiceProperties.register(registry, database, dir, allowed);
    ServiceProperties.token(registry, 0, "admin", ADMIN, "ADMIN");
  }

  /** Each field of the request body, then "all" of them together. */
  static List<String> dimensions() {
    List<String> names = new ArrayList<>();
    for (RecordComponent c : RestoreRequestBody.class.getRecordComponents()) {
      names.add(c.getName());
    }
    names.add("all");
    return names;
  }

  @ParameterizedTest
  @MethodSource("dimensions")
  void theLargestValidRequestIsTakenAndRuns(String dimension) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("source", Map.of("kind", "backup", "location", backup.toString()));
    for (RecordComponent c : RestoreRequestBody.class.getRecordComponents()) {
      if (dimension.equals("all") || dimension.equals(c.getName())) {
        Object largest = largest(c);
        if (largest != null) {
          body.put(c.getName(), largest);
        }
      }
    }
    if (dimension.equals("all")) {
      body.remove("into"); // restores exactly one account: not with thousands named
      body.remove("provisioningOnly"); // contradicts skipProvisioning
      body.remove("undeleteTo"); // bounds as asOf does
      body.remove("undeleteFrom");
    }
    if (dimension.equals("into") || dimension.equals("undeleteTo")) {
      body.putAll(partners(dimension));
    }
    byte[] json = Json.MAPPER.writeValueAsBytes(body);
    assertThat((long) json.length)
        .as("the largest request fits the default body limit")
        .isLessThanOrEqualTo(ServerSettings.ApiSettings.DEFAULT_MAX_BODY_SIZE.toBytes());

    HttpResponse<String> created =
        post(json, (dimension + "-" + "k".repeat(128)).substring(0, 128));
    assertThat(created.statusCode()).as("%s: %s", dimension, created.body()).isEqualTo(201);
    String id = Json.MAPPER.readTree(created.body()).path("id").asString();
    JsonNode ended = awaitEnd(id);
    assertThat(ended.path("state").asString())
        .as("%s: %s", dimension, ended)
        .isIn(OperationState.COMPLETED.name(), OperationState.PARTIAL.name());
    JsonNode failures = get("/api/v1/restores/" + id + "/failures?size=1000");
    for (JsonNode f : failures.path("items")) {
      assertThat(f.path("reason").asString())
          .as("%s: %s", dimension, f)
          .isNotIn("DATABASE_ERROR", "INTERNAL_ERROR");
    }
    assertThat(get("/api/v1/restores?size=1000").path("items").toString()).contains(id);
  }

  /**
   * The largest value a field declares, shaped so the request stays valid: names that include the
   * backup's own accounts and domain (so something is restored), padded to the bound.
   */
  private static Object largest(RecordComponent c) {
    String name = c.getName();
    Size size = declared(c, Size.class);
    Max max = declared(c, Max.class);
    Pattern pattern = declared(c, Pattern.class);
    if (c.getType() == List.class) {
      Size element = elementSize(c.getAnnotatedType());
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < size.max(); i++) {
        values.add(
            element == null ? Integer.MAX_VALUE - i : padded(seed(name, i), element.max(), i));
      }
      return values;
    }
    if (pattern != null) {
      String longest = "";
      for (String option : pattern.regexp().split("\\|")) {
        longest = option.length() > longest.length() ? option : longest;
      }
      return longest;
    }
    if (c.getType() == String.class && size != null) {
      return name.equals("into")
          ? padded("into@example.org", size.max(), 0)
          : "s".repeat(size.max());
    }
    if (max != null) {
      return max.value();
    }
    if (c.getType() == Instant.class) {
      return name.equals("undeleteFrom") ? "2000-01-01T00:00:00Z" : Instant.now().toString();
    }
    return null;
  }

  /** What a field needs beside it to be valid at its bound. */
  private static Map<String, Object> partners(String dimension) {
    return switch (dimension) {
      case "into" -> Map.of("accounts", List.of(realAccounts.get(0)));
      case "undeleteTo" -> Map.of("undeleteFrom", "2000-01-01T00:00:00Z");
      default -> Map.of();
    };
  }

  /** The i-th value of a list: the backup's own accounts and domain first, then made-up ones. */
  private static String seed(String list, int i) {
    if (list.equals("accounts") && i < realAccounts.size()) {
      return realAccounts.get(i);
    }
    if (list.equals("domains") && i == 0) {
      return realAccounts.get(0).substring(realAccounts.get(0).indexOf('@') + 1);
    }
    return list + "-" + i;
  }

  /** {@code value} as it is when it is a real name, else padded to {@code length}. */
  private static String padded(String value, int length, int i) {
    if (realAccounts.contains(value) || (i == 0 && value.indexOf('-') < 0)) {
      return value;
    }
    int at = value.indexOf('@');
    String tail = at < 0 ? "" : value.substring(at);
    String head = at < 0 ? value : value.substring(0, at);
    return head + "x".repeat(Math.max(0, length - value.length())) + tail;
  }

  /**
   * A constraint as the record declares it: on the component's type (the constraints are type-use
   * annotations) or on its accessor.
   */
  private static <A extends java.lang.annotation.Annotation> A declared(
      RecordComponent c, Class<A> type) {
    A onType = c.getAnnotatedType().getAnnotation(type);
    return onType != null ? onType : c.getAccessor().getAnnotation(type);
  }

  private static Size elementSize(AnnotatedType type) {
    if (type instanceof AnnotatedParameterizedType p) {
      return p.getAnnotatedActualTypeArguments()[0].getAnnotation(Size.class);
    }
    return null;
  }

  private HttpResponse<String> post(byte[] json, String idempotencyKey) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/restores"))
            .timeout(Duration.ofMinutes(2))
            .header("Authorization", "Bearer " + ADMIN)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", idempotencyKey)
            .POST(HttpRequest.BodyPublishers.ofByteArray(json))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofMinutes(2))
                .header("Authorization", "Bearer " + ADMIN)
                .build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(200);
    return Json.MAPPER.readTree(r.body());
  }

  private JsonNode awaitEnd(String id) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      JsonNode view = get("/api/v1/restores/" + id);
      String state = view.path("state").asString();
      if (!state.equals("QUEUED") && !state.equals("RUNNING")) {
        return view;
      }
      assertThat(System.nanoTime()).as("operation %s ends: %s", id, view).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
