package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.HostileBackup;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import tools.jackson.databind.JsonNode;

/**
 * The admin CLI against a real service process: start, watch (plain lines off a terminal), status,
 * list, accounts, failures, cancel and resume, with the exit codes scripts rely on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceFromCliIT {

  Path dir;
  TestDatabase database;
  ServiceProcess service;
  Path backups;

  @BeforeAll
  void startService(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    database = TestMariaDb.createDatabase();
    backups = Files.createDirectories(dir.resolve("backups"));
    service = ServiceProcess.start(database, dir, backups);
  }

  @AfterAll
  void stopService() throws Exception {
    if (service != null) {
      service.close();
    }
    database.close();
  }

  @Test
  void cancelledFromTheCliThenResumedToAnExactEnd() throws Exception {
    Path backup = RestoreProcesses.generate(backups.resolve("large"), 6, 1500, 9);

    Cli.Result started =
        service.cli(
            "restore",
            "start",
            "--backup",
            backup.toString(),
            "--cluster-size",
            "50",
            "--concurrent-accounts",
            "1");
    assertThat(started.exitCode()).as(started.err()).isZero();
    String operation = started.operation();

    service.awaitItemsRestored(operation);
    Cli.Result cancel = service.cli("restore", "cancel", operation);
    assertThat(cancel.exitCode()).as(cancel.err()).isZero();
    assertThat(cancel.out()).contains(operation);

    // Off a terminal, watch prints plain lines and ends with the summary; CANCELLED exits 3.
    Cli.Result watched = service.cli("restore", "watch", operation, "--every", "1");
    assertThat(watched.exitCode()).as(watched.out() + watched.err()).isEqualTo(3);
    assertThat(watched.out()).contains("CANCELLED").doesNotContain("\r");

    Cli.Result shown = service.cli("restore", "status", operation);
    assertThat(shown.exitCode()).as("status exits as watch does").isEqualTo(3);
    assertThat(shown.out()).contains(operation).contains("CANCELLED");
    Cli.Result listed = service.cli("restore", "list", "--state", "CANCELLED");
    assertThat(listed.out()).contains(operation);

    Cli.Result again = service.cli("restore", "cancel", operation);
    assertThat(again.exitCode()).as("an ended operation cannot be cancelled").isEqualTo(7);
    assertThat(again.err()).contains("Conflict");

    Cli.Result resumed = service.cli("restore", "resume", operation, "--watch");
    assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
    assertThat(resumed.out()).contains("resumed").contains("COMPLETED");
    assertThat(service.cli("restore", "status", operation, "--json").exitCode()).isZero();

    Cli.Result accounts = service.cli("restore", "accounts", operation);
    assertThat(accounts.exitCode()).isZero();
    assertThat(accounts.out()).contains("RESTORED").doesNotContain("FAILED");

    Cli.Result verified = Cli.verify(backup, database, service.volume);
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");
  }

  @Test
  void cancelAllStopsEveryQueuedOrRunningOperation() throws Exception {
    Path backup = RestoreProcesses.generate(backups.resolve("two"), 6, 1500, 13);
    List<String> operations = new ArrayList<>();
    for (String policy : List.of("merge", "new-account")) {
      Cli.Result started =
          service.cli(
              "restore",
              "start",
              "--backup",
              backup.toString(),
              "--policy",
              policy,
              "--cluster-size",
              "50",
              "--concurrent-accounts",
              "1",
              "--max-items-per-second",
              "40");
      assertThat(started.exitCode()).as(started.err()).isZero();
      operations.add(started.operation());
    }
    service.awaitItemsRestored(operations.get(0));
    // Held to 40 items/s, the 9,000 items take minutes: status answers for a running operation.
    Cli.Result running = service.cli("restore", "status", operations.get(0));
    assertThat(running.out()).contains("RUNNING");
    assertThat(running.exitCode()).as("status of an operation that has not ended").isEqualTo(8);
    Cli.Result slowed =
        service.cli("restore", "pace", operations.get(0), "--max-items-per-second", "50", "--json");
    assertThat(slowed.exitCode()).as(slowed.err()).isZero();
    assertThat(Json.MAPPER.readTree(slowed.out()).path("maxItemsPerSecond").asDouble())
        .isEqualTo(50.0);
    Cli.Result shown = service.cli("restore", "pace", operations.get(0));
    assertThat(shown.out()).contains("at most 50.0 items/s, any MB/s");
    Cli.Result viewer =
        service.cli("restore", "pace", operations.get(1), "--max-mb-per-second", "0");
    assertThat(viewer.exitCode()).as(viewer.err()).isZero();

    Cli.Result stopped = service.cli("restore", "cancel", "--all");
    assertThat(stopped.exitCode()).as(stopped.out() + stopped.err()).isZero();
    for (String operation : operations) {
      assertThat(stopped.out()).contains("operation " + operation);
      Cli.Result watched = service.cli("restore", "watch", operation, "--every", "1");
      assertThat(watched.out()).as("%s", operation).contains("CANCELLED");
      assertThat(watched.exitCode()).isEqualTo(3);
    }
    Cli.Result none = service.cli("restore", "cancel", "--all");
    assertThat(none.out()).contains("no operation is queued or running");
    assertThat(service.cli("restore", "cancel").exitCode())
        .as("neither an id nor --all")
        .isEqualTo(2);
  }

  @Test
  void aMissingBlobEndsPartialAndIsListedAmongTheFailures() throws Exception {
    Path backup = RestoreProcesses.generate(backups.resolve("damaged"), 2, 80, 21);
    String digest = RestoreProcesses.deleteALiveMessagesBlob(backup);

    Cli.Result started =
        service.cli(
            "restore",
            "start",
            "--backup",
            backup.toString(),
            "--policy",
            "new-account",
            "--watch");
    assertThat(started.exitCode()).as(started.out() + started.err()).isEqualTo(1);
    assertThat(started.out()).contains("PARTIAL");
    String operation = started.operation();
    assertThat(service.cli("restore", "status", operation).exitCode()).isEqualTo(1);

    Cli.Result failures = service.cli("restore", "failures", operation);
    assertThat(failures.exitCode()).isZero();
    assertThat(failures.out()).contains("BLOB_MISSING").contains(digest);
    Cli.Result json = service.cli("restore", "failures", operation, "--json");
    assertThat(Json.MAPPER.readTree(json.out()).path("items").size()).isEqualTo(1);

    Path reportFile = dir.resolve("report.json");
    Cli.Result report = service.cli("restore", "report", operation, "--out", reportFile.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(report.out()).contains("1 unrestored").contains("BLOB_MISSING");
    JsonNode written = Json.MAPPER.readTree(Files.readString(reportFile));
    assertThat(written.path("version").asInt()).isEqualTo(1);
    assertThat(written.at("/operation/state").asString()).isEqualTo("PARTIAL");
    List<JsonNode> unrestored = new ArrayList<>();
    long restored = 0;
    for (JsonNode account : written.path("accounts")) {
      account.path("unrestored").forEach(unrestored::add);
      restored += account.path("restored").asLong();
    }
    assertThat(unrestored)
        .singleElement()
        .satisfies(p -> {
          assertThat(p.path("reason").asString()).isEqualTo("BLOB_MISSING");
          assertThat(p.path("itemId").asInt()).isPositive();
          assertThat(p.path("detail").asString()).contains(digest);
        });
    assertThat(restored).isEqualTo(written.at("/operation/counts/itemsRestored").asLong());
  }

  @Test
  void aHostileBackupEndsPartialWithExactlyItsFailureList() throws Exception {
    Path backup = backups.resolve("hostile");
    Map<Integer, String> expected = HostileBackup.write(backup);

    Cli.Result started =
        service.cli("restore", "start", "--backup", backup.toString(), "--watch", "--json");
    assertThat(started.exitCode()).as(started.out() + started.err()).isEqualTo(1);
    JsonNode ended =
        Json.MAPPER.readTree(started.out().substring(started.out().lastIndexOf("\n{")));
    assertThat(ended.path("state").asString()).isEqualTo("PARTIAL");
    assertThat(ended.path("counts").path("itemsRestored").asLong())
        .isEqualTo(HostileBackup.GOOD_ITEMS);

    Cli.Result json =
        service.cli("restore", "failures", ended.path("id").asString(), "--size", "100", "--json");
    assertThat(json.exitCode()).as(json.err()).isZero();
    Map<Integer, String> actual = new TreeMap<>();
    for (JsonNode failure : Json.MAPPER.readTree(json.out()).path("items")) {
      assertThat(failure.path("detail").asString()).as("a reason a person can act on").isNotBlank();
      actual.put(failure.path("itemId").asInt(), failure.path("reason").asString());
    }
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void refusalsHaveExitCodesAndReasons() throws Exception {
    Cli.Result outside = service.cli("restore", "start", "--backup", "/etc");
    assertThat(outside.exitCode()).isEqualTo(2);
    assertThat(outside.err()).contains("source.location").contains("allowed");

    Cli.Result escaping = service.cli("restore", "status", "../../../actuator/info", "--json");
    assertThat(escaping.exitCode()).as("an id is one path segment").isNotZero();
    assertThat(escaping.out()).as("nothing of another path is printed").isBlank();

    Cli.Result unknown = service.cli("restore", "status", "no-such-operation");
    assertThat(unknown.exitCode()).isEqualTo(6);
    assertThat(unknown.err()).contains("no-such-operation");

    Path wrongToken = Files.writeString(dir.resolve("wrong-token"), "not-the-token");
    Cli.Result denied =
        Cli.run("restore", "list", "--url", service.url, "--token-file", wrongToken.toString());
    assertThat(denied.exitCode()).isEqualTo(5);

    Cli.Result unreachable =
        Cli.run(
            "restore",
            "list",
            "--url",
            "http://localhost:1",
            "--token-file",
            service.tokenFile.toString());
    assertThat(unreachable.exitCode()).isEqualTo(4);
    assertThat(unreachable.err()).contains("cannot reach the service");
  }
}
