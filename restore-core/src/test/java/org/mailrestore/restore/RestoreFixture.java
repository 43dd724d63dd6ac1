package org.mailrestore.restore;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.destination.memory.MemoryStore;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/**
 * A test database and a target, and a runtime over them wired as the application wires them (by
 * {@link RestoreRuntime}): the engine's own tests restore into the in-memory target by default,
 * another module's into its own target. The S3 profile {@code test} reaches the test S3 server.
 */
public final class RestoreFixture implements AutoCloseable {

  public final TestDatabase database;
  public final MeterRegistry registry = new SimpleMeterRegistry();
  public final RestoreMetrics metrics = new RestoreMetrics(registry);
  public final RestoreRuntime runtime;
  public final RestoreEngine engine;
  private final List<TargetSpec> targets;
  private final Map<String, String> environment;
  private final boolean withS3;
  private final PathFence fence;
  private final StorageLimits limits;
  private final String memoryStore;

  /** An in-memory target of its own. */
  public RestoreFixture() throws SQLException, IOException {
    this(memory(), false, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE);
  }

  /** Sources read files only inside {@code fence}, as the service's are. */
  public RestoreFixture(PathFence fence) throws SQLException, IOException {
    this(memory(), false, RestoreEngine.DEFAULT_LEASE_SECONDS, fence);
  }

  /** Sources held to these bounds (a small largest item, say). */
  public RestoreFixture(StorageLimits limits) throws SQLException, IOException {
    this(
        List.of(memory()),
        false,
        RestoreEngine.DEFAULT_LEASE_SECONDS,
        PathFence.NONE,
        System.getenv(),
        limits);
  }

  /** Leases of this many seconds: a dead instance's accounts are taken over sooner. */
  public RestoreFixture(int leaseSeconds) throws SQLException, IOException {
    this(memory(), false, leaseSeconds, PathFence.NONE);
  }

  public RestoreFixture(TargetSpec target, boolean withS3) throws SQLException, IOException {
    this(target, withS3, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE);
  }

  public RestoreFixture(TargetSpec target, boolean withS3, int leaseSeconds, PathFence fence)
      throws SQLException, IOException {
    this(List.of(target), withS3, leaseSeconds, fence);
  }

  /** Several targets, composed: each takes the kinds of item it carries. */
  public RestoreFixture(List<TargetSpec> targets, boolean withS3, int leaseSeconds, PathFence fence)
      throws SQLException, IOException {
    this(targets, withS3, leaseSeconds, fence, System.getenv());
  }

  /** Targets whose secrets come from {@code environment} (a server's admin). */
  public RestoreFixture(
      List<TargetSpec> targets,
      boolean withS3,
      int leaseSeconds,
      PathFence fence,
      Map<String, String> environment)
      throws SQLException, IOException {
    this(targets, withS3, leaseSeconds, fence, environment, StorageLimits.DEFAULT);
  }

  private RestoreFixture(
      List<TargetSpec> targets,
      boolean withS3,
      int leaseSeconds,
      PathFence fence,
      Map<String, String> environment,
      StorageLimits limits)
      throws SQLException, IOException {
    this.limits = limits;
    this.environment = Map.copyOf(environment);
    this.targets = List.copyOf(targets);
    this.withS3 = withS3;
    this.fence = fence;
    this.memoryStore =
        targets.stream()
            .filter(t -> t.kind().equals(MemoryKind.NAME))
            .map(TargetSpec::location)
            .findFirst()
            .orElse(null);
    database = TestMariaDb.createDatabase();
    runtime = runtime(database.dataSource(), leaseSeconds);
    runtime.target(null);
    engine = runtime.engine();
  }

  private static TargetSpec memory() {
    return MemoryKind.of("fixture-" + UUID.randomUUID());
  }

  /**
   * Another runtime over the same target, on the database as {@code dataSource} reaches it (a
   * connection that fails, say), with the same meters. Closed with this fixture's.
   */
  public RestoreRuntime runtime(DataSource dataSource, int leaseSeconds) {
    return RestoreRuntime.builder()
        .dataSource(dataSource)
        .registry(registry)
        .metrics(metrics)
        .s3Profiles(withS3 ? Map.of("test", testProfile()) : Map.of())
        .concurrency(new Concurrency(3, 2, 16))
        .instanceId("test-instance")
        .leaseSeconds(leaseSeconds)
        .fence(fence)
        .limits(limits)
        .defaultTargets(targets)
        .environment(environment)
        .build();
  }

  public static S3Settings testProfile() {
    S3Server s3 = TestS3.server();
    return S3Settings.of(s3.endpoint(), s3.region(), s3.accessKey(), s3.secretKey());
  }

  /** Another engine on the same database and target: a second instance of the service. */
  public RestoreEngine secondInstance(String instanceId, int leaseSeconds, MeterRegistry meters) {
    return runtime.newEngine(instanceId, leaseSeconds, new RestoreMetrics(meters));
  }

  /** The target restores write to. */
  public MailTarget target() throws SQLException, IOException {
    return runtime.target(null);
  }

  /** The in-memory store the target writes to (a fixture over the in-memory target). */
  public MemoryStore memoryStore() {
    if (memoryStore == null) {
      throw new IllegalStateException("the fixture has no in-memory target: " + targets);
    }
    return MemoryStore.named(memoryStore);
  }

  /** What the target holds, read back. */
  public RestoredStore store() throws SQLException, IOException {
    return target().readBack();
  }

  /** The first column of a query's first row, as a number (the engine's tables). */
  public long count(String sql) throws SQLException {
    try (var c = database.dataSource().getConnection();
        var s = c.createStatement();
        var rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  public OperationSummary restore(RestoreRequest request) throws SQLException {
    return engine.run(engine.submit(request, null));
  }

  /** Runs an operation on a thread of its own, for a test that watches or interrupts it. */
  public CompletableFuture<OperationSummary> runInBackground(String id) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return engine.run(id);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  public VerifyReport verify(Path backup, Verifier.Options options)
      throws SQLException, IOException {
    return verify(BackupSourceKind.local(backup), options);
  }

  public VerifyReport verify(SourceSpec source, Verifier.Options options)
      throws SQLException, IOException {
    return runtime.verify(source, null, options);
  }

  @Override
  public void close() {
    runtime.close();
    database.close();
    if (memoryStore != null) {
      MemoryStore.forget(memoryStore);
    }
  }
}
