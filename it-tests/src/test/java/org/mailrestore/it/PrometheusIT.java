package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;
import org.mailrestore.testkit.FaultProxy;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.testkit.TestS3;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * The shipped observability kit against a live service: a real Prometheus, with the scrape
 * configuration and rules of deploy/prometheus unchanged (only its targets file and token are
 * written, as an administrator would), scrapes a service that has just restored an S3 backup into
 * an S3 volume through injected faults and with a missing blob. Then every query of every dashboard
 * must return data, and every alert rule must evaluate without error.
 */
class PrometheusIT {

  private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;
  TestDatabase database;
  TestDatabase cliDatabase;
  CliProcess cli;

  @BeforeEach
  void createDatabase() {
    assumeTrue(
        PrometheusServer.binary("prometheus").isPresent()
            && PrometheusServer.binary("promtool").isPresent(),
        "prometheus and promtool are not installed: `apt-get install prometheus` (Debian) to run"
            + " this test; .ci/run installs them");
    database = TestMariaDb.createDatabase();
    cliDatabase = TestMariaDb.createDatabase();
  }

  @AfterEach
  void dropDatabase() throws InterruptedException {
    if (cli != null && cli.isAlive()) {
      cli.kill();
    }
    if (database != null) {
      database.close();
    }
    if (cliDatabase != null) {
      cliDatabase.close();
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void everyDashboardQueryReturnsDataAndEveryRuleEvaluates() throws Exception {
    // The kit as an administrator installs it: the shipped files, plus targets and a token.
    Path kit = dir.resolve("prometheus");
    copyTree(REPOSITORY.resolve("deploy/prometheus"), kit);
    String metricsToken = "metrics-" + System.nanoTime();
    Files.createDirectories(kit.resolve("secrets"));
    Files.writeString(kit.resolve("secrets/mailrestore-metrics.token"), metricsToken);

    Cli.Result config = PrometheusServer.promtool(kit, "check", "config", "prometheus.yml");
    assertThat(config.exitCode()).as(config.out()).isZero();
    List<String> ruleFiles;
    try (Stream<Path> files = Files.list(kit.resolve("rules"))) {
      ruleFiles = files.map(p -> kit.relativize(p).toString()).sorted().toList();
    }
    List<String> checkRules = new ArrayList<>(List.of("check", "rules"));
    checkRules.addAll(ruleFiles);
    Cli.Result rules = PrometheusServer.promtool(kit, checkRules.toArray(String[]::new));
    assertThat(rules.exitCode()).as(rules.out()).isZero();
    // Checked as shipped; then scraped and evaluated every 2 s rather than 15 s, so that the test
    // waits seconds, not half a minute, for the points its rates need.
    Path yml = kit.resolve("prometheus.yml");
    String shipped = Files.readString(yml);
    String quick =
        shipped
            .replace("scrape_interval: 15s", "scrape_interval: 2s")
            .replace("evaluation_interval: 15s", "evaluation_interval: 2s");
    assertThat(quick).as("the shipped intervals").doesNotContain(": 15s");
    Files.writeString(yml, quick);

    // A backup in S3 with one blob missing, restored into an S3 volume through faults.
    Path backup = dir.resolve("roots").resolve("backup");
    RestoreProcesses.generate(backup, 4, 150, 31);
    RestoreProcesses.deleteALiveMessagesBlob(backup);
    String backupBucket = TestS3.createBucket();
    TestS3.upload(backup, backupBucket, "nightly");
    String volumeBucket = TestS3.createBucket();
    S3Server s3 = TestS3.server();
    FaultProxy.Faults faults = new FaultProxy.Faults(0.03, 0.02, 0.03, Duration.ZERO, 7);
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint(), faults);
        ServiceProcess service =
            ServiceProcess.start(
                database,
                dir,
                Files.createDirectories(dir.resolve("roots")),
                ServiceProcess.settings(
                    ServiceProcess.s3Profile("store", proxy.endpoint(), s3),
                    "--mailrestore.security.tokens[1].name=prometheus",
                    "--mailrestore.security.tokens[1].role=VIEWER",
                    "--mailrestore.security.tokens[1].sha256="
                        + BlobDigest.ofContent(metricsToken.getBytes(StandardCharsets.UTF_8)).hex(),
                    "--mailrestore.volume.kind=s3",
                    "--mailrestore.volume.location=s3://" + volumeBucket + "/volume",
                    "--mailrestore.volume.s3-profile=store"))) {
      // Beside the service, a restore run from the command line serving its own metrics.
      int cliPort;
      try (ServerSocket free = new ServerSocket(0)) {
        cliPort = free.getLocalPort();
      }
      String cliInstance = "127.0.0.1:" + cliPort;
      String serviceInstance = service.url.substring("http://".length());
      cli =
          CliProcess.start(
              cliDatabase.server().password(),
              List.of(
                  "restore",
                  "run",
                  "--backup",
                  backup.toString(),
                  "--jdbc-url",
                  cliDatabase.jdbcUrl(),
                  "--db-user",
                  cliDatabase.server().user(),
                  "--volume",
                  dir.resolve("cli-volume").toString(),
                  "--metrics-port",
                  String.valueOf(cliPort),
                  "--metrics-linger",
                  "300"));
      Files.writeString(
          kit.resolve("targets/mailrestore.json"),
          "[{\"targets\": [\"" + serviceInstance + "\", \"" + cliInstance + "\"]}]\n");
      try (PrometheusServer prometheus =
          PrometheusServer.start(kit.resolve("prometheus.yml"), dir.resolve("tsdb"))) {
        awaitScrapes(prometheus, serviceInstance, 1);
        Cli.Result restored =
            service.cli(
                "restore",
                "start",
                "--backup",
                "s3://" + backupBucket + "/nightly",
                "--s3-profile",
                "store",
                "--watch");
        assertThat(restored.out()).as(restored.err()).contains("PARTIAL");
        // Two more scrapes: the restore's counters, then a second point for rates.
        // The catalogue lists every family of the service's own metrics.
        String page = service.get("/actuator/prometheus");
        String catalogue = Files.readString(REPOSITORY.resolve("docs/metrics.md"));
        Matcher family = Pattern.compile("(?m)^# TYPE (mailrestore_\\w+?)(_max)? ").matcher(page);
        List<String> undocumented = new ArrayList<>();
        while (family.find()) {
          if (!catalogue.contains("`" + family.group(1) + "`")) {
            undocumented.add(family.group(1));
          }
        }
        assertThat(undocumented).as("metrics missing from docs/metrics.md").isEmpty();
        int seen = scrapes(prometheus, serviceInstance);
        awaitScrapes(prometheus, serviceInstance, seen + 2);

        Map<String, String> failing = new LinkedHashMap<>();
        int queries = 0;
        try (Stream<Path> files = Files.list(REPOSITORY.resolve("grafana/dashboards"))) {
          for (Path file : files.sorted().toList()) {
            JsonNode dashboard = Json.MAPPER.readTree(file.toFile());
            for (JsonNode variable : dashboard.at("/templating/list")) {
              String query = variable.path("definition").asString();
              queries++;
              JsonNode values = labelValues(prometheus, query);
              if (values.path("data").isEmpty()) {
                failing.put(file.getFileName() + " variable " + query, values.toString());
              }
            }
            for (String expr : dashboard.findValuesAsString("expr")) {
              String promql = substitute(expr);
              queries++;
              JsonNode answer = prometheus.query(promql);
              if (!"success".equals(answer.path("status").asString())
                  || answer.at("/data/result").isEmpty()) {
                failing.put(file.getFileName() + ": " + promql, answer.toString());
              }
            }
          }
        }
        assertThat(queries).isGreaterThan(40);

        // Every alert rule: evaluated by Prometheus itself without error, and queryable.
        int ruleCount = 0;
        for (String file : ruleFiles) {
          Map<String, Object> groups = new Yaml().load(Files.readString(kit.resolve(file)));
          for (Object group : (List<?>) groups.get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
              String expr = String.valueOf(((Map<?, ?>) rule).get("expr"));
              ruleCount++;
              JsonNode answer = prometheus.query(expr);
              if (!"success".equals(answer.path("status").asString())) {
                failing.put(file + ": " + expr, answer.toString());
              }
            }
          }
        }
        JsonNode evaluated = awaitRulesEvaluated(prometheus, ruleCount);
        for (JsonNode group : evaluated.at("/data/groups")) {
          for (JsonNode rule : group.path("rules")) {
            if (!"ok".equals(rule.path("health").asString())) {
              failing.put("rule " + rule.path("name").asString(), rule.toString());
            }
          }
        }
        assertThat(failing).as("queries without data or in error").isEmpty();

        // The CLI restore's counters reached Prometheus through its --metrics-port.
        awaitScrapes(prometheus, cliInstance, 1);
        JsonNode cliItems =
            prometheus.query(
                "mailrestore_items_total{job=\"mailrestore\",instance=\""
                    + cliInstance
                    + "\",outcome=\"restored\"}");
        assertThat(cliItems.at("/data/result")).as("%s", cliItems).isNotEmpty();
        assertThat(cli.output()).contains("metrics at http://" + cliInstance);
      }
    }
  }

  /** Grafana's variables replaced as Grafana does with "All" selected and a 5-minute range. */
  private static String substitute(String expr) {
    return expr.replace("$__rate_interval", "5m")
        .replace("$__range", "5m")
        .replace("$job", ".+")
        .replace("$instance", ".+");
  }

  /** Grafana's {@code label_values(metric, label)} through the labels API. */
  private static JsonNode labelValues(PrometheusServer prometheus, String definition)
      throws Exception {
    String inner = definition.substring("label_values(".length(), definition.length() - 1);
    int comma = inner.lastIndexOf(',');
    String match = substitute(inner.substring(0, comma).strip());
    String label = inner.substring(comma + 1).strip();
    return prometheus.labelValues(label, match);
  }

  /** How many scrapes of an instance Prometheus has made (its {@code up} samples). */
  private static int scrapes(PrometheusServer prometheus, String instance) throws Exception {
    String up = "up{job=\"mailrestore\",instance=\"" + instance + "\"}";
    JsonNode r = prometheus.query("count_over_time(" + up + "[1h]) and " + up + " == 1");
    JsonNode result = r.at("/data/result");
    return result.isEmpty() ? 0 : (int) Double.parseDouble(result.get(0).at("/value/1").asString());
  }

  private static void awaitScrapes(PrometheusServer prometheus, String instance, int count)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (scrapes(prometheus, instance) < count) {
      JsonNode targets = prometheus.get("/api/v1/targets");
      assertThat(System.nanoTime())
          .as("%d successful scrapes in 90 s; targets: %s", count, targets)
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  /** The rules once each has been evaluated at least once. */
  private static JsonNode awaitRulesEvaluated(PrometheusServer prometheus, int count)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      JsonNode rules = prometheus.get("/api/v1/rules");
      List<String> evaluated = new ArrayList<>();
      for (JsonNode group : rules.at("/data/groups")) {
        for (JsonNode rule : group.path("rules")) {
          if (!rule.path("lastEvaluation").asString().startsWith("0001-")) {
            evaluated.add(rule.path("name").asString());
          }
        }
      }
      if (evaluated.size() >= count) {
        return rules;
      }
      assertThat(System.nanoTime()).as("rules evaluated: %s", rules).isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!from.relativize(p).startsWith("secrets")) {
          Files.copy(p, target);
        }
      }
    }
  }
}
