package org.mailrestore.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.Sha256;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.mail.Json;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.Pace;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Restores;
import org.mailrestore.source.SourceSpec;

/**
 * The restore under measurement, in a JVM of its own (started by {@link RestoreBench} with the heap
 * it is given): wired as the CLI wires it, it restores a backup into a database and a volume, and
 * writes what it measured of itself (phase times, counts, peak heap, GC and CPU time) as JSON.
 */
public final class RestoreRun {

  /**
   * What the parent asks for.
   *
   * @param source what to restore (an s3:// location names the profile {@link #S3_PROFILE})
   * @param s3 the S3 endpoint of an s3:// source or volume; null when both are local
   * @param warmupJdbcUrl when set, a database the same source is first restored into, unmeasured
   */
  record Params(
      String jdbcUrl,
      String user,
      String password,
      SourceSpec source,
      String volume,
      VolumeSpec.Kind volumeKind,
      int clusterSize,
      int accounts,
      int clustersPerAccount,
      int blobTransfers,
      S3Endpoint s3,
      String warmupJdbcUrl) {

    /** The same restore into another database and a volume beside this one, with no warm-up. */
    Params training(String trainingJdbcUrl) {
      return new Params(
          trainingJdbcUrl,
          user,
          password,
          source,
          volume + "-aot",
          volumeKind,
          clusterSize,
          accounts,
          clustersPerAccount,
          blobTransfers,
          s3,
          null);
    }
  }

  /** The java binary of this JVM, which restore JVMs run too. */
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

  /** A backup in our format, local or in the benchmark's bucket. */
  static SourceSpec backup(String location) {
    SourceSpec spec = SourceSpec.of(BackupSourceKind.NAME, location);
    return spec.isS3() ? spec.withProfile(S3_PROFILE) : spec;
  }

  /** Any source kind at a location, in the benchmark's bucket when it is s3://. */
  static SourceSpec source(String kind, String location) {
    SourceSpec spec = SourceSpec.of(kind, location);
    return spec.isS3() ? spec.withProfile(S3_PROFILE) : spec;
  }

  /** An S3 endpoint and its keys. */
  record S3Endpoint(String endpoint, String region, String accessKey, String secretKey) {}

  /** What the child measured. */
  record Result(
      String state,
      long provisioningMillis,
      long dataMillis,
      long sharesMillis,
      long itemsRestored,
      long itemsFailed,
      long bytesRestored,
      long dedupHits,
      long peakHeapBytes,
      long maxHeapBytes,
      long gcMillis,
      long gcCount,
      long cpuNanos,
      long wallNanos,
      long volumeBytes,
      ServerWork dataServerWork,
      String sha256Provider) {}

  /** A restore's view at its end, and what the database did from phase 2's start to that end. */
  private record Restored(OperationView view, ServerWork dataServerWork) {}

  private RestoreRun() {}

  public static void main(String[] args) throws Exception {
    Params p = Json.MAPPER.readValue(Files.readString(Path.of(args[0])), Params.class);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    AtomicLong peakHeap = new AtomicLong();
    Thread sampler =
        Thread.ofPlatform()
            .daemon()
            .name("heap-sampler")
            .start(() -> {
              while (!Thread.currentThread().isInterrupted()) {
                peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    if (p.warmupJdbcUrl() != null) {
      // A service restores in a JVM that has run before: the warm-up's JIT work is not measured.
      OperationView warm = restore(p, p.warmupJdbcUrl(), p.volume() + "-warmup").view();
      if (warm.state() != OperationState.COMPLETED) {
        throw new IllegalStateException("the warm-up restore ended " + warm.state());
      }
      peakHeap.set(0);
    }
    long gcMillisBefore = gcMillis();
    long gcCountBefore = gcCount();
    long cpuBefore = cpuNanos();
    long started = System.nanoTime();
    Restored restored = restore(p, p.jdbcUrl(), p.volume());
    OperationView summary = restored.view();
    long wall = System.nanoTime() - started;
    sampler.interrupt();
    long gcMillis = gcMillis() - gcMillisBefore;
    long gcCount = gcCount() - gcCountBefore;
    long cpu = cpuNanos() - cpuBefore;
    OperationSummary.Counts c = summary.counts();
    Result result =
        new Result(
            summary.state().name(),
            orZero(summary.phases().provisioningMs()),
            orZero(summary.phases().dataMs()),
            orZero(summary.phases().sharesMs()),
            c.itemsRestored(),
            c.itemsFailed(),
            c.bytesRestored(),
            c.dedupHits(),
            peakHeap.get(),
            memory.getHeapMemoryUsage().getMax(),
            gcMillis,
            gcCount,
            cpu,
            wall,
            volumeBytes(p),
            restored.dataServerWork(),
            // At the end: the provider loads beside the start, and hashes from then on.
            Sha256.providerName());
    Files.writeString(Path.of(args[1]), Json.MAPPER.writeValueAsString(result));
  }

  /**
   * One whole restore of the parameters' backup into a database and a volume. The database's work
   * is also taken from the end of phase 1 to the end, the rows a raw insert writes: the schema's
   * creation and the provisioning are left out (null when the server cannot be asked).
   */
  private static Restored restore(Params p, String jdbcUrl, String volume) throws Exception {
    AtomicReference<ServerWork> atData = new AtomicReference<>();
    Concurrency concurrency =
        new Concurrency(p.accounts(), p.clustersPerAccount(), p.blobTransfers());
    VolumeSpec spec =
        new VolumeSpec(
            "bench",
            p.volumeKind(),
            volume,
            BlobCompression.NONE,
            0,
            0,
            p.volumeKind().isS3() ? S3_PROFILE : null);
    try (Restores restores =
        Restores.builder()
            .database(jdbcUrl, p.user(), p.password())
            .poolName("restore-bench")
            .s3Profiles(profiles(p))
            .concurrency(concurrency)
            .instanceId("bench")
            .defaultTarget(MailstoreKind.of(spec))
            .listener(
                new OperationListener() {
                  @Override
                  public void provisioned(OperationSummary summary) {
                    atData.set(serverWork(p, jdbcUrl));
                  }

                  @Override
                  public void ended(OperationReport report) {}
                })
            .build()) {
      RestoreRequest request = RestoreRequest.of(p.source()).withClusterSize(p.clusterSize());
      OperationView view =
          restores.await(restores.submit(request, null, Pace.UNLIMITED).id(), Duration.ofDays(1));
      ServerWork start = atData.get();
      ServerWork end = start == null ? null : serverWork(p, jdbcUrl);
      return new Restored(view, end == null ? null : end.since(start));
    }
  }

  /** The server's counters now; null when they cannot be read (a listener must not throw). */
  private static ServerWork serverWork(Params p, String jdbcUrl) {
    try {
      return ServerWork.now(jdbcUrl, p.user(), p.password());
    } catch (SQLException e) {
      return null;
    }
  }

  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }

  private static long gcCount() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionCount());
    }
    return total;
  }

  /** This JVM's CPU time so far, all threads, user and system. */
  static long cpuNanos() {
    return ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class).getProcessCpuTime();
  }

  /**
   * Runs a restore in a JVM of its own with the given heap, from the benchmark jar this JVM was
   * started from, and returns what it measured.
   */
  static Result inChild(Params params, String heap, Path workDir)
      throws IOException, InterruptedException {
    int exit = run(params, heap, workDir, prepare(params, heap, workDir), true);
    if (exit != 0) {
      throw new IllegalStateException("the restore JVM failed with exit code " + exit);
    }
    return Json.MAPPER.readValue(
        Files.readString(workDir.resolve("restore-result.json")), Result.class);
  }

  /**
   * The class path flags of a restore JVM ({@link ChildJvm}); trains the start-up cache first when
   * this build has none, restoring the same source into a database and volume of its own.
   */
  static List<String> prepare(Params params, String heap, Path workDir)
      throws IOException, InterruptedException {
    return ChildJvm.classPath(
        JAVA,
        options -> {
          try (BenchDatabase db =
              new BenchDatabase(
                  BenchDatabase.serverOf(params.jdbcUrl()),
                  params.user(),
                  params.password(),
                  "aot",
                  1)) {
            return run(params.training(db.jdbcUrl()), heap, workDir, options, false);
          } catch (Exception e) {
            System.err.println("training the start-up cache failed: " + e);
            return -1;
          }
        });
  }

  private static int run(
      Params params, String heap, Path workDir, List<String> classPath, boolean withExtra)
      throws IOException, InterruptedException {
    Path paramsFile = workDir.resolve("restore-params.json");
    Path resultFile = workDir.resolve("restore-result.json");
    Files.writeString(paramsFile, Json.MAPPER.writeValueAsString(params));
    List<String> command = new ArrayList<>(List.of(JAVA.toString(), "-Xmx" + heap));
    command.addAll(LAUNCHER_COMMAND_FLAGS);
    // For profiles: e.g. BENCH_RESTORE_JAVA_OPTS=-XX:StartFlightRecording=filename=r.jfr
    String extra = System.getenv("BENCH_RESTORE_JAVA_OPTS");
    if (withExtra && extra != null && !extra.isBlank()) {
      command.addAll(List.of(extra.strip().split("\\s+")));
    }
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(classPath);
    command.addAll(List.of("restore-child", paramsFile.toString(), resultFile.toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    if (withExtra) {
      builder.inheritIO();
    } else {
      builder
          .redirectErrorStream(true)
          .redirectOutput(workDir.resolve("aot-training.log").toFile());
    }
    return builder.start().waitFor();
  }

  /**
   * The JVM flags the {@code mailrestore} launcher gives a command such as {@code restore run}
   * (serial collector, client compiler: decision 0019), so that the restore measured is the one a
   * user runs. Without them the server compiler spends a third of a 100,000-item restore's CPU.
   */
  static final List<String> LAUNCHER_COMMAND_FLAGS =
      List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  static final String S3_PROFILE = "bench";

  private static Map<String, S3Settings> profiles(Params p) {
    if (p.s3() == null) {
      return Map.of();
    }
    S3Endpoint e = p.s3();
    return Map.of(
        S3_PROFILE,
        S3Settings.of(URI.create(e.endpoint()), e.region(), e.accessKey(), e.secretKey())
            .withMaxConnections(p.blobTransfers() + 8));
  }

  /** The bytes a local volume holds after the restore; 0 for an S3 one. */
  private static long volumeBytes(Params p) throws IOException {
    Path root = Path.of(p.volume());
    if (p.volumeKind().isS3() || !Files.isDirectory(root)) {
      return 0;
    }
    try (var files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }
}
