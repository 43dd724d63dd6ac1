package org.mailrestore.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.mailrestore.mailstore.MailstoreSchema;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationStore;
import org.mailrestore.restore.RestoreEngine;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.RestoreTarget;
import org.mailrestore.restore.storage.BackupSources;
import org.mailrestore.restore.storage.S3Profiles;
import org.mailrestore.restore.storage.StorageLimits;
import org.mailrestore.restore.storage.VolumeSpec;
import org.mailrestore.restore.storage.Volumes;
import org.mailrestore.verify.Verifier;

/**
 * What a local command works on: the mailstore database (migrated on open), the volume blobs go to,
 * and the backups it may read (local, or S3 through the environment's profiles).
 */
final class Mailstore implements AutoCloseable {

  final HikariDataSource dataSource;
  final RestoreTarget target;
  final RestoreMetrics metrics;
  final S3Profiles profiles;
  final BackupSources sources;
  final Volumes volumes;
  private final Concurrency concurrency;
  private final List<RestoreEngine> engines = new ArrayList<>();

  Mailstore(String jdbcUrl, String user, String password, VolumeSpec volume)
      throws SQLException, IOException {
    this(jdbcUrl, user, password, volume, Concurrency.forMachine(), new SimpleMeterRegistry());
  }

  /**
   * @param concurrency sizes the connection pool: one connection per cluster in flight
   * @param registry receives the restore's meters and the pool's ({@code hikaricp.*})
   */
  Mailstore(
      String jdbcUrl,
      String user,
      String password,
      VolumeSpec volume,
      Concurrency concurrency,
      MeterRegistry registry)
      throws SQLException, IOException {
    this.concurrency = concurrency;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(MailstoreSchema.jdbcUrl(jdbcUrl));
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(concurrency.databaseConnections());
    config.setMinimumIdle(1);
    config.setPoolName("mailstore");
    config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    this.metrics = new RestoreMetrics(registry);
    this.profiles = new S3Profiles(EnvironmentS3Profiles.read(System.getenv()), registry);
    this.sources = new BackupSources(profiles, StorageLimits.DEFAULT, registry);
    this.volumes = new Volumes(profiles, StorageLimits.DEFAULT, registry);
    this.dataSource = new HikariDataSource(config);
    try {
      MailstoreSchema.migrate(dataSource);
      this.target = volumes.target(dataSource, volume);
    } catch (SQLException | IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  RestoreEngine engine() {
    return engine(RestoreEngine.DEFAULT_LEASE_SECONDS);
  }

  /**
   * @param leaseSeconds how long an account stays claimed after this process stops committing: a
   *     resumed run waits at most that long for the accounts of a process that died
   */
  RestoreEngine engine(int leaseSeconds) {
    RestoreEngine engine =
        new RestoreEngine(
            new OperationStore(dataSource),
            target,
            sources,
            metrics,
            "cli-" + UUID.randomUUID().toString().substring(0, 8),
            leaseSeconds,
            concurrency);
    engines.add(engine);
    return engine;
  }

  Verifier verifier() throws SQLException, IOException {
    return new Verifier(dataSource, volumes.openAll(dataSource));
  }

  @Override
  public void close() {
    // The engines' heartbeats stop before the pool they use closes.
    engines.forEach(RestoreEngine::close);
    profiles.close();
    if (dataSource != null) {
      dataSource.close();
    }
  }
}
