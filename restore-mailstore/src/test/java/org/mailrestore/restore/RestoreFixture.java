package org.mailrestore.restore;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.MailstoreTarget;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/**
 * A test database, a volume, and a runtime over them, wired as the application wires them (by
 * {@link RestoreRuntime}). The S3 profile {@code test} reaches the test S3 server.
 */
final class RestoreFixture implements AutoCloseable {

  final TestDatabase database;
  final MeterRegistry registry = new SimpleMeterRegistry();
  final RestoreMetrics metrics = new RestoreMetrics(registry);
  final RestoreRuntime runtime;
  final BlobVolume volume;
  final RestoreEngine engine;
  private final VolumeSpec volumeSpec;
  private final boolean withS3;
  private final PathFence fence;

  RestoreFixture(Path volumeDir) throws SQLException, IOException {
    this(VolumeSpec.local("default", volumeDir.toString()), false);
  }

  /** Sources read files only inside {@code fence}, as the service's are. */
  RestoreFixture(Path volumeDir, PathFence fence) throws SQLException, IOException {
    this(
        VolumeSpec.local("default", volumeDir.toString()),
        false,
        RestoreEngine.DEFAULT_LEASE_SECONDS,
        fence);
  }

  RestoreFixture(VolumeSpec volumeSpec, boolean withS3) throws SQLException, IOException {
    this(volumeSpec, withS3, RestoreEngine.DEFAULT_LEASE_SECONDS);
  }

  RestoreFixture(VolumeSpec volumeSpec, boolean withS3, int leaseSeconds)
      throws SQLException, IOException {
    this(volumeSpec, withS3, leaseSeconds, PathFence.NONE);
  }

  RestoreFixture(VolumeSpec volumeSpec, boolean withS3, int leaseSeconds, PathFence fence)
      throws SQLException, IOException {
    this.volumeSpec = volumeSpec;
    this.withS3 = withS3;
    this.fence = fence;
    database = TestMariaDb.createDatabase();
    runtime = runtime(database.dataSource(), leaseSeconds);
    volume = ((MailstoreTarget) runtime.target(null)).volume();
    engine = runtime.engine();
  }

  /**
   * Another runtime over the same volume, on the database as {@code dataSource} reaches it (a
   * connection that fails, say), with the same meters. Closed with this fixture's.
   */
  RestoreRuntime runtime(DataSource dataSource, int leaseSeconds) {
    return RestoreRuntime.builder()
        .dataSource(dataSource)
        .registry(registry)
        .metrics(metrics)
        .s3Profiles(withS3 ? Map.of("test", testProfile()) : Map.of())
        .concurrency(new Concurrency(3, 2, 16))
        .instanceId("test-instance")
        .leaseSeconds(leaseSeconds)
        .fence(fence)
        .defaultTarget(MailstoreKind.of(volumeSpec))
        .build();
  }

  static S3Settings testProfile() {
    S3Server s3 = TestS3.server();
    return S3Settings.of(s3.endpoint(), s3.region(), s3.accessKey(), s3.secretKey());
  }

  /** Another engine on the same database and volume: a second instance of the service. */
  RestoreEngine secondInstance(String instanceId, int leaseSeconds, MeterRegistry meters) {
    return runtime.newEngine(instanceId, leaseSeconds, new RestoreMetrics(meters));
  }

  long count(String sql) throws SQLException {
    try (var c = database.dataSource().getConnection();
        var s = c.createStatement();
        var rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first column of a query's first row, or null. */
  String string(String sql) throws SQLException {
    try (var c = database.dataSource().getConnection();
        var s = c.createStatement();
        var rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  OperationSummary restore(RequestSupplier request) throws SQLException {
    return restore(request.get());
  }

  /** A request, for call sites that build one lazily. */
  @FunctionalInterface
  interface RequestSupplier {
    RestoreRequest get();
  }

  OperationSummary restore(RestoreRequest request) throws SQLException {
    return engine.run(engine.submit(request, null));
  }

  VerifyReport verify(Path backup, Verifier.Options options) throws SQLException, IOException {
    return verify(BackupSourceKind.local(backup), options);
  }

  VerifyReport verify(SourceSpec source, Verifier.Options options)
      throws SQLException, IOException {
    return runtime.verify(source, null, options);
  }

  @Override
  public void close() {
    runtime.close();
    database.close();
  }
}
