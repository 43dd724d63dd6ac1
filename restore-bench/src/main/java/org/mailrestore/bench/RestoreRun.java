package org.mailrestore.bench;

import com.sun.management.OperatingSystemMXBean;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.mailrestore.backup.Json;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationStore;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreEngine;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.storage.BackupSources;
import org.mailrestore.restore.storage.S3Profiles;
import org.mailrestore.restore.storage.StorageLimits;
import org.mailrestore.restore.storage.VolumeSpec;
import org.mailrestore.restore.storage.Volumes;

/**
 * The restore under measurement, in a JVM of its own (started by {@link RestoreBench} with the heap
 * it is given): wired as the CLI wires it, it restores a backup into a database and a volume, and
 * writes what it measured of itself (phase times, counts, peak heap, GC and CPU time) as JSON.
 */
public final class RestoreRun {

  /** What the parent asks for. */
  record Params(
      String jdbcUrl,
      String user,
      String password,
      String backup,
      String volume,
      VolumeSpec.Kind volumeKind,
      int clusterSize,
      int accounts,
      int clustersPerAccount,
      int blobTransfers) {}

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
      long wallNanos) {}

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
    long started = System.nanoTime();
    Concurrency concurrency =
        new Concurrency(p.accounts(), p.clustersPerAccount(), p.blobTransfers());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(p.jdbcUrl());
    config.setUsername(p.user());
    config.setPassword(p.password());
    config.setMaximumPoolSize(concurrency.databaseConnections());
    config.setPoolName("restore-bench");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    OperationSummary summary;
    try (HikariDataSource ds = new HikariDataSource(config);
        S3Profiles profiles = new S3Profiles(Map.of(), registry)) {
      org.mailrestore.mailstore.MailstoreSchema.migrate(ds);
      BackupSources sources = new BackupSources(profiles, StorageLimits.DEFAULT, registry);
      Volumes volumes = new Volumes(profiles, StorageLimits.DEFAULT, registry);
      VolumeSpec spec =
          new VolumeSpec("bench", p.volumeKind(), p.volume(), BlobCompression.NONE, 0, 0, null);
      try (RestoreEngine engine =
          new RestoreEngine(
              new OperationStore(ds),
              volumes.target(ds, spec),
              sources,
              new RestoreMetrics(registry),
              "bench",
              RestoreEngine.DEFAULT_LEASE_SECONDS,
              concurrency)) {
        RestoreRequest request = RestoreRequest.local(p.backup()).withClusterSize(p.clusterSize());
        summary = engine.run(engine.submit(request, null));
      }
    }
    long wall = System.nanoTime() - started;
    sampler.interrupt();
    long gcMillis = 0;
    long gcCount = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcMillis += Math.max(0, gc.getCollectionTime());
      gcCount += Math.max(0, gc.getCollectionCount());
    }
    long cpu = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class).getProcessCpuTime();
    OperationSummary.Counts c = summary.counts();
    Result result =
        new Result(
            summary.state().name(),
            orZero(summary.provisioningMillis()),
            orZero(summary.dataMillis()),
            orZero(summary.sharesMillis()),
            c.itemsRestored(),
            c.itemsFailed(),
            c.bytesRestored(),
            c.dedupHits(),
            peakHeap.get(),
            memory.getHeapMemoryUsage().getMax(),
            gcMillis,
            gcCount,
            cpu,
            wall);
    Files.writeString(Path.of(args[1]), Json.MAPPER.writeValueAsString(result));
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }
}
