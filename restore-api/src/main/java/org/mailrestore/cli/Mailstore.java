package org.mailrestore.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.LocalBlobVolume;
import org.mailrestore.mailstore.MailstoreSchema;
import org.mailrestore.mailstore.VolumeStore;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.LocalBackupOpener;
import org.mailrestore.restore.OperationStore;
import org.mailrestore.restore.RestoreEngine;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.RestoreTarget;
import org.mailrestore.verify.Verifier;

/**
 * The mailstore a local command works on: a MariaDB database (migrated on open) and a local blob
 * volume registered in it.
 */
final class Mailstore implements AutoCloseable {

  /** Connection options the mailstore relies on: the bulk insert path for batches. */
  static final String JDBC_OPTIONS = "useBulkStmtsForInserts=true";

  final HikariDataSource dataSource;
  final LocalBlobVolume volume;
  final RestoreTarget target;
  final RestoreMetrics metrics;

  /** Where restored blobs go: a named local volume. */
  record VolumeSpec(String name, Path directory, BlobCompression compression, long threshold) {}

  Mailstore(String jdbcUrl, String user, String password, VolumeSpec spec) throws SQLException {
    this(jdbcUrl, user, password, spec, Concurrency.forMachine(), new SimpleMeterRegistry());
  }

  /**
   * @param concurrency sizes the connection pool: one connection per cluster in flight
   * @param registry receives the restore's meters and the pool's ({@code hikaricp.*})
   */
  Mailstore(
      String jdbcUrl,
      String user,
      String password,
      VolumeSpec spec,
      Concurrency concurrency,
      MeterRegistry registry)
      throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(withOptions(jdbcUrl));
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(concurrency.databaseConnections());
    config.setMinimumIdle(1);
    config.setPoolName("mailstore");
    config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    this.metrics = new RestoreMetrics(registry);
    this.dataSource = new HikariDataSource(config);
    try {
      MailstoreSchema.migrate(dataSource);
      this.volume = new LocalBlobVolume(spec.directory(), spec.compression(), spec.threshold());
      int volumeId =
          new VolumeStore(dataSource)
              .register(
                  spec.name(),
                  "local",
                  volume.root().toString(),
                  spec.compression().name().toLowerCase(Locale.ROOT),
                  spec.threshold());
      this.target = new RestoreTarget(dataSource, volume, volumeId);
    } catch (SQLException | RuntimeException e) {
      dataSource.close();
      throw e;
    }
  }

  static String withOptions(String url) {
    if (url.contains("useBulkStmtsForInserts")) {
      return url;
    }
    return url + (url.contains("?") ? "&" : "?") + JDBC_OPTIONS;
  }

  RestoreEngine engine() {
    return engine(RestoreEngine.DEFAULT_LEASE_SECONDS);
  }

  /**
   * @param leaseSeconds how long an account stays claimed after this process stops committing: a
   *     resumed run waits at most that long for the accounts of a process that died
   */
  RestoreEngine engine(int leaseSeconds) {
    return new RestoreEngine(
        new OperationStore(dataSource),
        target,
        new LocalBackupOpener(),
        metrics,
        "cli-" + UUID.randomUUID().toString().substring(0, 8),
        leaseSeconds);
  }

  Verifier verifier() {
    return new Verifier(dataSource, Map.of(target.volumeId(), volume));
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
