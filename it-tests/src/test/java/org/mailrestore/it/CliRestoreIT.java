package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Json;
import org.mailrestore.testkit.MariaDbServer;
import org.mailrestore.testkit.TestDatabase;
import tools.jackson.databind.JsonNode;

/**
 * The local commands against a real MariaDB: generate, inspect, restore run, verify. Each test has
 * a database of its own: verify expects a restore into an empty mailstore.
 */
class CliRestoreIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  private String[] store(String... args) {
    return Cli.args(List.of(args), Cli.store(own.database(), dir.resolve("volume")));
  }

  @Test
  void generateRestoreVerifyAndRerun() {
    Path backup = dir.resolve("backup");
    Cli.Result generated =
        Cli.run(
            "backup",
            "generate",
            "--out",
            backup.toString(),
            "--accounts",
            "5",
            "--items",
            "120",
            "--seed",
            "7");
    assertThat(generated.exitCode()).as(generated.out()).isZero();
    assertThat(generated.out()).contains("6 accounts");

    Cli.Result inspected = Cli.run("backup", "inspect", backup.toString());
    assertThat(inspected.exitCode()).as(inspected.out()).isZero();
    assertThat(inspected.out()).contains("format mailrestore-backup 1.0").contains("6 accounts");
    Cli.Result inspectedJson = Cli.run("backup", "inspect", backup.toString(), "--json");
    assertThat(document(inspectedJson.out()).path("accounts").size()).isEqualTo(6);

    Cli.Result restored = Cli.run(store("restore", "run", "--backup", backup.toString()));
    assertThat(restored.exitCode()).as(restored.out()).isZero();
    assertThat(restored.out()).containsPattern("operation +[0-9a-f-]{36} +COMPLETED");

    Cli.Result verified = Cli.run(store("verify", "--backup", backup.toString()));
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");

    Cli.Result again = Cli.run(store("restore", "run", "--backup", backup.toString()));
    assertThat(again.exitCode()).as(again.out()).isZero();
    assertThat(again.out()).containsPattern("items +0 restored, [1-9][0-9,]* skipped, 0 failed");

    // The operation recorded its volume: a resume names no target, and one naming another is
    // refused rather than splitting the restore between two places (decision 0077).
    Matcher id = Pattern.compile("operation ([0-9a-f-]{36})").matcher(restored.out());
    assertThat(id.find()).as(restored.out()).isTrue();
    Cli.Result resumed =
        Cli.run(
            Cli.args(
                List.of("restore", "run", "--operation", id.group(1)),
                Cli.database(own.database())));
    assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
    assertThat(resumed.out()).contains("COMPLETED");
    Cli.Result elsewhere =
        Cli.run(
            Cli.args(
                List.of("restore", "run", "--operation", id.group(1)),
                Cli.store(own.database(), dir.resolve("another-volume"))));
    assertThat(elsewhere.exitCode()).as(elsewhere.out()).isEqualTo(2);
    assertThat(elsewhere.err())
        .contains("writes to")
        .contains(dir.resolve("volume").toAbsolutePath().toString())
        .contains("leave out the target flags, or name the same");
  }

  @Test
  void anAccountsFileRestoresOnlyTheAccountsItLists() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 4, 50, 3);
    Path list = dir.resolve("accounts.txt");
    Files.writeString(
        list, "# the two we need back\nalice.0000@acme.example\n\n  bob.0001@globex.example\n");
    Cli.Result restored =
        Cli.run(
            store(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--accounts-file",
                list.toString(),
                "--concurrent-accounts",
                "1"));
    assertThat(restored.exitCode()).as(restored.out()).isZero();
    assertThat(restored.out()).contains("accounts    2 (0 failed)");

    Files.writeString(list, "# nobody\n");
    Cli.Result empty =
        Cli.run(
            store(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--accounts-file",
                list.toString()));
    assertThat(empty.exitCode()).as("a usage error").isEqualTo(2);
    assertThat(empty.out()).doesNotContain("operation ");
  }

  @Test
  void aBackupOfAnUnknownVersionIsRefusedByName() throws Exception {
    Path bad = Files.createDirectories(dir.resolve("future"));
    Files.writeString(
        bad.resolve("backup.json"), "{\"format\":\"mailrestore-backup\",\"version\":\"3.0\"}");
    Cli.Result inspected = Cli.run("backup", "inspect", bad.toString());
    assertThat(inspected.exitCode()).isEqualTo(3);
    Cli.Result restored = Cli.run(store("restore", "run", "--backup", bad.toString()));
    assertThat(restored.exitCode()).as(restored.out()).isEqualTo(3);
    assertThat(restored.out()).contains("FAILED").contains("format version 3.0");
  }

  @Test
  void aTruncatedItemFileAndAMissingBlobAreListedAndTheRestGoesOn() throws Exception {
    Path backup = dir.resolve("damaged");
    assertThat(
            Cli.run(
                    "backup",
                    "generate",
                    "--out",
                    backup.toString(),
                    "--accounts",
                    "3",
                    "--items",
                    "80",
                    "--layout",
                    "loose",
                    "--seed",
                    "9",
                    "--no-shares")
                .exitCode())
        .isZero();
    Path itemFile;
    try (Stream<Path> files = Files.walk(backup.resolve("accounts"))) {
      itemFile =
          files
              .filter(p -> p.toString().contains("/items/") && p.toString().endsWith(".json"))
              .filter(p -> p.getFileName().toString().compareTo("300") > 0)
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(itemFile);
    Files.write(itemFile, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    String digest = RestoreProcesses.deleteALiveMessagesBlob(backup);

    Cli.Result restored =
        Cli.run(
            Cli.args(
                List.of(
                    "restore", "run", "--backup", backup.toString(), "--volume-name", "damaged"),
                Cli.store(own.database(), dir.resolve("volume-damaged"))));
    assertThat(restored.exitCode()).as(restored.out()).isEqualTo(1);
    String itemName = itemFile.getFileName().toString();
    assertThat(restored.out())
        .contains("PARTIAL")
        .contains("INVALID_ITEM")
        .contains(itemName)
        .contains("item " + itemName.replace(".json", ""))
        .contains("BLOB_MISSING")
        .contains(digest);

    List<String> store = new ArrayList<>(Cli.store(own.database(), dir.resolve("volume-damaged")));
    store.addAll(List.of("--volume-name", "damaged"));
    Cli.Result plain = Cli.run(Cli.args(List.of("verify", "--backup", backup.toString()), store));
    assertThat(plain.exitCode()).as("the backup holds what was not restored").isEqualTo(1);
    Matcher id = Pattern.compile("operation ([0-9a-f-]{36})").matcher(restored.out());
    assertThat(id.find()).as(restored.out()).isTrue();
    // No target flag: the operation recorded its volume (its absolute path and its name).
    Cli.Result asRestored =
        Cli.run(
            Cli.args(List.of("verify", "--operation", id.group(1)), Cli.database(own.database())));
    assertThat(asRestored.exitCode()).as(asRestored.out() + asRestored.err()).isZero();
    assertThat(asRestored.out())
        .contains("no differences")
        .as(
            "the message whose blob was missing is excused; the unreadable item file is unreadable to verify too")
        .contains("1 items missing as reported in the failure list");
    Cli.Result both =
        Cli.run(
            Cli.args(
                List.of("verify", "--operation", id.group(1), "--backup", backup.toString()),
                store));
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("the operation's own source");
  }

  @Test
  void aRestoreIntoADatabaseThatDoesNotExistCreatesItAndShowsProgress() throws Exception {
    // Large enough to run a few seconds, so that progress lines show.
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 3, 3000, 5);
    MariaDbServer server = own.database().server();
    String name = own.database().name() + "_new";
    List<String> target =
        List.of(
            "--jdbc-url",
            server.jdbcUrl(name),
            "--db-user",
            server.user(),
            "--volume",
            dir.resolve("new-volume").toString());
    try {
      Cli.Result restored =
          Cli.run(
              Cli.args(
                  List.of(
                      "restore",
                      "run",
                      "--backup",
                      backup.toString(),
                      "--concurrent-accounts",
                      "1",
                      // about 3 s for the 8,600 items: long enough for progress lines anywhere
                      "--max-items-per-second",
                      "3000",
                      "--every",
                      "1"),
                  target));
      assertThat(restored.exitCode()).as(restored.out() + restored.err()).isZero();
      assertThat(restored.out())
          .as("off a terminal, a local restore prints a progress line every --every seconds")
          .containsPattern("(?m)^RUNNING +DATA +\\[[#.]+\\] \\d+/4 accounts, [0-9,]+ items");
      long started = System.nanoTime();
      Cli.Result verified =
          Cli.run(
              Cli.args(List.of("verify", "--backup", backup.toString(), "--every", "1"), target));
      long millis = (System.nanoTime() - started) / 1_000_000;
      assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
      assertThat(verified.out()).contains("no differences");
      if (millis > 2500) {
        assertThat(verified.out())
            .as("verify says what it has read, by kind")
            .containsPattern(
                "(?m)^verify +\\d+/4 accounts, [0-9,]+ messages, [0-9,]+ folders, [0-9,]+ other"
                    + " items");
      }
    } finally {
      sql(server, "DROP DATABASE IF EXISTS " + name);
    }
  }

  @Test
  void aUserWhoMayNotCreateTheDatabaseIsToldWhatToRun() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 1, 10, 5);
    MariaDbServer server = own.database().server();
    String user = "mr_" + own.database().name().substring(8, 20);
    String name = own.database().name() + "_denied";
    Path password = dir.resolve("password");
    Files.writeString(password, "pw-" + user);
    sql(server, "CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw-" + user + "'");
    try {
      Cli.Result refused =
          Cli.run(
              "restore",
              "run",
              "--backup",
              backup.toString(),
              "--jdbc-url",
              server.jdbcUrl(name),
              "--db-user",
              user,
              "--db-password-file",
              password.toString(),
              "--volume",
              dir.resolve("volume").toString());
      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.out() + refused.err())
          .contains("the database " + name + " does not exist and user " + user)
          .contains("CREATE DATABASE `" + name + "`")
          .contains("GRANT ALL PRIVILEGES ON `" + name + "`.* TO '" + user + "'");
    } finally {
      sql(server, "DROP USER IF EXISTS '" + user + "'@'%'");
      sql(server, "DROP DATABASE IF EXISTS " + name);
    }
  }

  @Test
  void withJsonTheLocalCommandsPrintOneDocumentForScripts() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 60, 4);
    Cli.Result restored =
        Cli.run(
            store(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--json",
                "--report",
                dir.resolve("report.json").toString()));
    assertThat(restored.exitCode()).as(restored.err()).isZero();
    JsonNode report = Json.MAPPER.readTree(Files.readString(dir.resolve("report.json")));
    assertThat(report.path("accounts").size()).isEqualTo(3);
    assertThat(report.at("/accounts/0/state").asString()).isEqualTo("RESTORED");
    assertThat(report.at("/accounts/0/unrestored").isEmpty()).isTrue();
    assertThat(restored.err()).contains("report      written to");
    JsonNode operation = document(restored.out());
    assertThat(operation.path("state").asString()).isEqualTo("COMPLETED");
    assertThat(operation.path("counts").path("itemsRestored").asLong()).isPositive();
    assertThat(restored.err()).contains("operation " + operation.path("id").asString());

    Cli.Result verified = Cli.run(store("verify", "--backup", backup.toString(), "--json"));
    assertThat(verified.exitCode()).as(verified.err()).isZero();
    JsonNode verify = document(verified.out());
    assertThat(verify.path("identical").asBoolean()).isTrue();
    assertThat(verify.path("report").path("items").asLong()).isPositive();

    Path out = dir.resolve("export");
    Cli.Result exported =
        Cli.run(
            store(
                "export",
                "maildir",
                "--account",
                "alice.0000@acme.example",
                "--out",
                out.toString(),
                "--json"));
    assertThat(exported.exitCode()).as(exported.err()).isZero();
    JsonNode export = document(exported.out());
    assertThat(export.path("accounts").get(0).asString()).isEqualTo("alice.0000@acme.example");
    assertThat(export.path("items").asLong()).isPositive();
  }

  @Test
  void aDryRunSaysWhatWouldHappenAndWritesNothing() throws Exception {
    Path first = RestoreProcesses.generate(dir.resolve("first"), 2, 60, 4);
    Path second = RestoreProcesses.generate(dir.resolve("second"), 4, 60, 5);
    Cli.Result restored = Cli.run(store("restore", "run", "--backup", first.toString()));
    assertThat(restored.exitCode()).as(restored.out()).isZero();
    Map<String, Long> before = rowCounts(own.database());
    long volumeFiles = fileCount(dir.resolve("volume"));

    Cli.Result planned =
        Cli.run(store("restore", "run", "--backup", second.toString(), "--dry-run"));
    assertThat(planned.exitCode()).as(planned.out() + planned.err()).isZero();
    assertThat(planned.out())
        .contains("nothing was written")
        .containsPattern("(?m)^  MERGE +alice.0000@acme.example +[0-9,]+ items")
        .containsPattern("(?m)^  CREATE +\\S+ +[0-9,]+ items")
        .contains("total       5 accounts");
    Cli.Result skipping =
        Cli.run(
            store(
                "restore",
                "run",
                "--backup",
                second.toString(),
                "--dry-run",
                "--policy",
                "skip",
                "--json"));
    assertThat(skipping.exitCode()).as(skipping.err()).isZero();
    JsonNode plan = document(skipping.out());
    assertThat(plan.path("policy").asString()).isEqualTo("SKIP");
    assertThat(plan.at("/accounts/0/action").asString()).isIn("SKIP", "CREATE");
    long skipped = 0;
    for (JsonNode account : plan.path("accounts")) {
      if (account.path("action").asString().equals("SKIP")) {
        skipped++;
        assertThat(account.path("items").asLong()).isZero();
      } else {
        assertThat(account.path("items").asLong()).isPositive();
      }
    }
    long merged = planned.out().lines().filter(l -> l.startsWith("  MERGE ")).count();
    assertThat(skipped).as("the accounts both backups hold").isEqualTo(merged).isPositive();

    assertThat(rowCounts(own.database())).as("every table's rows").isEqualTo(before);
    assertThat(fileCount(dir.resolve("volume"))).isEqualTo(volumeFiles);
  }

  private static Map<String, Long> rowCounts(TestDatabase db) throws SQLException {
    Map<String, Long> counts = new TreeMap<>();
    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                  + db.name()
                  + "'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      for (String table : tables) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM `" + table + "`")) {
          rs.next();
          counts.put(table, rs.getLong(1));
        }
      }
    }
    assertThat(counts).isNotEmpty();
    return counts;
  }

  private static long fileCount(Path root) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  /** The JSON document a command printed (this JVM's test logging also writes to stdout). */
  private static JsonNode document(String out) {
    return Json.MAPPER.readTree(out.substring(out.startsWith("{") ? 0 : out.indexOf("\n{") + 1));
  }

  @Test
  void aCliRestoreServesItsMetricsForPrometheusWhileItRuns() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 400, 3);
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    CompletableFuture<Cli.Result> run =
        CompletableFuture.supplyAsync(() ->
            Cli.run(
                store(
                    "restore",
                    "run",
                    "--backup",
                    backup.toString(),
                    "--metrics-port",
                    String.valueOf(port),
                    "--metrics-linger",
                    "5")));
    HttpClient http = HttpClient.newHttpClient();
    URI scrape = URI.create("http://127.0.0.1:" + port + "/actuator/prometheus");
    String body = "";
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!body.contains("mailrestore_items_total{outcome=\"restored\"")
        && System.nanoTime() < deadline) {
      try {
        HttpResponse<String> r =
            http.send(HttpRequest.newBuilder(scrape).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
            .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        body = r.body();
      } catch (ConnectException notYet) {
        // the command has not opened its endpoint yet
      }
      Thread.sleep(50);
    }
    assertThat(body)
        .as("the restore's counters, in Prometheus' text format")
        .contains("mailrestore_items_total{outcome=\"restored\"")
        .contains("jvm_memory_used_bytes");
    Cli.Result result = run.get(2, TimeUnit.MINUTES);
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    assertThat(result.out())
        .contains("metrics at http://127.0.0.1:" + port + "/actuator/prometheus");
  }

  private static void sql(MariaDbServer server, String statement) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(server.serverUrl(), server.user(), server.password());
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }
}
