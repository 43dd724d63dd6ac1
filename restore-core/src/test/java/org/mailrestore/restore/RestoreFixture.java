package org.mailrestore.restore;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.mailstore.MailstoreSchema;
import org.mailrestore.restore.storage.BackupSources;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.restore.storage.VolumeSpec;
import org.mailrestore.restore.storage.Volumes;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/**
 * A migrated test database, a volume, and an engine over them, wired as the application wires them.
 * The S3 profile {@code test} reaches the test S3 server.
 */
final class RestoreFixture implements AutoCloseable {

  final TestDatabase database;
  final MeterRegistry registry = new SimpleMeterRegistry();
  final RestoreMetrics metrics = new RestoreMetrics(registry);
  final S3Profiles profiles;
  final BackupSources sources;
  final Volumes volumes;
  final RestoreTarget target;
  final BlobVolume volume;
  final RestoreEngine engine;

  RestoreFixture(Path volumeDir) throws SQLException, IOException {
    this(VolumeSpec.local("default", volumeDir.toString()), false);
  }

  RestoreFixture(VolumeSpec volumeSpec, boolean withS3) throws SQLException, IOException {
    this(volumeSpec, withS3, RestoreEngine.DEFAULT_LEASE_SECONDS);
  }

  RestoreFixture(VolumeSpec volumeSpec, boolean withS3, int leaseSeconds)
      throws SQLException, IOException {
    database = TestMariaDb.createDatabase();
    MailstoreSchema.migrate(database.dataSource());
    profiles = new S3Profiles(withS3 ? Map.of("test", testProfile()) : Map.of(), registry);
    sources = new BackupSources(profiles, StorageLimits.DEFAULT, registry);
    volumes = new Volumes(profiles, StorageLimits.DEFAULT, registry);
    target = volumes.target(database.dataSource(), volumeSpec);
    volume = target.volume();
    engine =
        new RestoreEngine(
            new OperationStore(database.dataSource()),
            target,
            sources,
            metrics,
            "test-instance",
            leaseSeconds,
            new Concurrency(3, 2, 16));
  }

  static S3Settings testProfile() {
    S3Server s3 = TestS3.server();
    return S3Settings.of(s3.endpoint(), s3.region(), s3.accessKey(), s3.secretKey());
  }

  /** Another engine on the same database and volume: a second instance of the service. */
  RestoreEngine secondInstance(String instanceId, int leaseSeconds, MeterRegistry registry) {
    return new RestoreEngine(
        new OperationStore(database.dataSource()),
        target,
        sources,
        new RestoreMetrics(registry),
        instanceId,
        leaseSeconds,
        new Concurrency(3, 2, 16));
  }

  long count(String sql) throws SQLException {
    try (var c = database.dataSource().getConnection();
        var s = c.createStatement();
        var rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
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
    return verify(new BackupSource.Local(backup.toString()), options);
  }

  VerifyReport verify(BackupSource backup, Verifier.Options options)
      throws SQLException, IOException {
    try (BackupReader reader = sources.open(backup)) {
      return new Verifier(database.dataSource(), volumes.openAll(database.dataSource()))
          .verify(reader, options);
    }
  }

  @Override
  public void close() {
    engine.close();
    profiles.close();
    database.close();
  }
}
