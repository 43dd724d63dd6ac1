package org.mailrestore.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

  /**
   * Where each stream is read, a thread of its own: a stream read on the client's own threads would
   * hold one of them for its whole life.
   */
  private final java.util.concurrent.ExecutorService readers =
      java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

  private BenchService service;
  private String url;

  @Override
  public Integer call() throws Exception {
    Path dir = ScratchSpace.directory("mailrestore-bench-console-");
    Path backups = Files.createDirectories(dir.resolve("backups"));
    Path backup = backups.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(accounts).withItemsPerAccount(items).withLargeRate(0),
        backup);
    try (BenchDatabase db =
            new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "console", 2);
        BenchService started = new BenchService(dir, db, mariadb, backups, List.of())) {
      service = started;
      url = service.url();
      Report report = new Report("the console's cost to the service");
      report.context(
          "restore",
          accounts + " accounts x " + items + " items, a generated backup, each run fresh");
      List<Double> without = new ArrayList<>();
      List<Double> with = new ArrayList<>();
      List<Double> cpuWithout = new ArrayList<>();
      List<Double> cpuWith = new ArrayList<>();
      restore(backup, 0); // warms the service up, unmeasured
      for (int r = 0; r < rounds; r++) {
        Run quiet = restore(backup, 0);
        without.add(quiet.seconds());
        cpuWithout.add(quiet.serviceCpuSeconds());
        Run followed = restore(backup, streams);
        with.add(followed.seconds());
        cpuWith.add(followed.serviceCpuSeconds());
      }
      double a = median(without);
      double b = median(with);
      List<Double> paired = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        paired.add((with.get(r) / without.get(r) - 1) * 100);
      }
      report.context(
          "slower by, each pair (a restore with streams against the one just before without)",
          String.format(Locale.ROOT, "median %.1f %% %s", median(paired), paired));
      report.context(
          "service CPU seconds per restore (median of " + rounds + ")",
          String.format(
              Locale.ROOT,
              "no stream %.2f %s; %d streams %.2f %s; more by %.1f %%",
              median(cpuWithout),
              cpuWithout,
              streams,
              median(cpuWith),
              cpuWith,
              (median(cpuWith) / median(cpuWithout) - 1) * 100));
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
      streamCosts(backup, service.pid(), report);
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
      browserRender(dir, report);
      report.print(System.out);
      if (json != null) {
        report.writeJson(json);
      }
    }
    ScratchSpace.deleteTree(dir);
    return 0;
  }

  /**
   * One restore: its seconds from start to end as the service records them, and the CPU the
   * service's process used from the request to the last stream's end.
   */
  private record Run(double seconds, double serviceCpuSeconds) {}

  /** One restore into accounts of its own, with {@code open} streams following it. */
  private Run restore(Path backup, int open) throws Exception {
    long servicePid = service.pid();
    long cpuBefore = Processes.cpuTicks(servicePid, false);
    JsonNode op = send("POST", "/api/v1/restores", freshCopy(backup, java.util.Map.of()));
    String id = op.path("id").asString();
    AtomicLong events = new AtomicLong();
    List<CompletableFuture<?>> followers = follow(id, open, () -> line -> events.incrementAndGet());
    JsonNode ended = service.awaitEnd(id);
    for (CompletableFuture<?> f : followers) {
      f.get(60, TimeUnit.SECONDS);
    }
    if (open > 0 && events.get() < open) {
      throw new IllegalStateException(events.get() + " events for " + open + " streams");
    }
    if (!"COMPLETED".equals(ended.path("state").asString())) {
      throw new IllegalStateException("the restore ended " + ended.path("state").asString());
    }
    double cpu = (Processes.cpuTicks(servicePid, false) - cpuBefore) / Processes.TICKS_PER_SECOND;
    return new Run(
        Duration.between(
                    Instant.parse(ended.path("startedAt").asString()),
                    Instant.parse(ended.path("finishedAt").asString()))
                .toMillis()
            / 1000.0,
        cpu);
  }

  /**
   * Where a stream's cost goes, in the service's CPU, on an operation paced to run for long:
   * opening the streams (until each has its first event), following them for ten ticks (less the
   * same ten seconds with no stream open), and closing them when the operation is cancelled.
   */
  private void streamCosts(Path backup, long pid, Report report) throws Exception {
    // 200 a second, or fewer for a small backup: it must outlast the 23 s measured
    long pace = Math.max(1, Math.min(200, (long) accounts * items / 120));
    String id =
        send(
                "POST",
                "/api/v1/restores",
                freshCopy(backup, java.util.Map.of("maxItemsPerSecond", pace)))
            .path("id")
            .asString();
    Thread.sleep(3000); // past its start
    long quiet0 = Processes.cpuTicks(pid, false);
    Thread.sleep(10_000);
    long quiet = Processes.cpuTicks(pid, false) - quiet0;
    java.util.concurrent.CountDownLatch first = new java.util.concurrent.CountDownLatch(streams);
    long open0 = Processes.cpuTicks(pid, false);
    List<CompletableFuture<?>> followers =
        follow(
            id,
            streams,
            () -> {
              java.util.concurrent.atomic.AtomicBoolean counted =
                  new java.util.concurrent.atomic.AtomicBoolean();
              return line -> {
                if (counted.compareAndSet(false, true)) {
                  first.countDown(); // its first event
                }
              };
            });
    if (!first.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("not every stream had its first event in 60 s");
    }
    long open = Processes.cpuTicks(pid, false) - open0;
    long follow0 = Processes.cpuTicks(pid, false);
    Thread.sleep(10_000);
    long follow = Processes.cpuTicks(pid, false) - follow0;
    long close0 = Processes.cpuTicks(pid, false);
    send("POST", "/api/v1/restores/" + id + "/cancel", null);
    for (CompletableFuture<?> f : followers) {
      f.get(60, TimeUnit.SECONDS);
    }
    long close = Processes.cpuTicks(pid, false) - close0;
    double perStream = 1000.0 / Processes.TICKS_PER_SECOND / streams;
    report.context(
        "service CPU per stream, on a paced operation",
        String.format(
            Locale.ROOT,
            "opening %.2f ms; following, per second %.3f ms (ten seconds: %.2f CPU-s with %d"
                + " streams, %.2f with none); closing %.2f ms (with the cancel)",
            open * perStream,
            Math.max(0, follow - quiet) * perStream / 10,
            follow / Processes.TICKS_PER_SECOND,
            streams,
            quiet / Processes.TICKS_PER_SECOND,
            close * perStream));
  }

  /**
   * The console's operations list as a person sees it: in Debian's chromium (headless, 1280x800),
   * signed in, each of ten loads of the page timed from its navigation's start to the first page's
   * 20 rows in the table (read every 10 ms).
   */
  private void browserRender(Path dir, Report report) throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/chromium"))
        || !Files.isExecutable(Path.of("/usr/bin/chromedriver"))) {
      report.context("operations list in the browser", "not timed: chromium is not installed");
      return;
    }
    var options = new org.openqa.selenium.chrome.ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
        "--window-size=1280,800",
        "--user-data-dir=" + dir.resolve("chromium"));
    var driverService =
        new org.openqa.selenium.chrome.ChromeDriverService.Builder()
            .usingDriverExecutable(new java.io.File("/usr/bin/chromedriver"))
            .build();
    var browser = new org.openqa.selenium.chrome.ChromeDriver(driverService, options);
    try {
      var wait =
          new org.openqa.selenium.support.ui.WebDriverWait(browser, Duration.ofSeconds(30))
              .pollingEvery(Duration.ofMillis(10));
      browser.get(url + "/");
      wait.until(d -> d.findElement(org.openqa.selenium.By.id("credential")).isDisplayed());
      browser.findElement(org.openqa.selenium.By.id("credential")).sendKeys(service.token());
      browser.findElement(org.openqa.selenium.By.cssSelector("#sign-in-form button")).click();
      String rendered =
          "return document.querySelectorAll('.table-wrap tbody tr').length === 20"
              + " ? performance.now() : null;";
      wait.until(d -> browser.executeScript(rendered));
      List<Double> loads = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        browser.navigate().refresh();
        Object at = wait.until(d -> browser.executeScript(rendered));
        loads.add(((Number) at).doubleValue() / 1000);
      }
      report.context(
          "operations list in the browser, first page with " + operations + " operations",
          String.format(
              Locale.ROOT,
              "median %.0f ms, slowest %.0f ms of 10 loads, from navigation to 20 rows",
              median(loads) * 1000,
              loads.stream().mapToDouble(Double::doubleValue).max().orElse(0) * 1000));
    } finally {
      browser.quit();
    }
  }

  /**
   * Opens {@code n} progress streams of an operation, each read on a thread of its own until it
   * ends; each stream's event lines ({@code event:...}) go to a listener of its own.
   */
  private List<CompletableFuture<?>> follow(
      String id, int n, java.util.function.Supplier<java.util.function.Consumer<String>> listener) {
    List<CompletableFuture<?>> followers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      HttpRequest r =
          HttpRequest.newBuilder(URI.create(url + "/api/v1/restores/" + id + "/events"))
              .header("Authorization", "Bearer " + service.token())
              .build();
      java.util.function.Consumer<String> events = listener.get();
      followers.add(
          http.sendAsync(r, HttpResponse.BodyHandlers.ofLines())
              .thenAcceptAsync(
                  resp ->
                      resp.body()
                          .forEach(line -> {
                            if (line.startsWith("event:")) {
                              events.accept(line);
                            }
                          }),
                  readers));
    }
    return followers;
  }

  /** The body of a restore of the backup into accounts of its own (new-account, a new suffix). */
  private static String freshCopy(Path backup, java.util.Map<String, Object> more) {
    java.util.Map<String, Object> body = new java.util.HashMap<>(more);
    body.put("source", java.util.Map.of("kind", "backup", "location", backup.toString()));
    body.put("conflictPolicy", "new-account");
    body.put("newAccountSuffix", "-b" + System.nanoTime());
    return Json.MAPPER.writeValueAsString(body);
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
    return service.get(path);
  }

  private JsonNode send(String method, String path, String body) throws Exception {
    return service.send(method, path, body);
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
  }
}
