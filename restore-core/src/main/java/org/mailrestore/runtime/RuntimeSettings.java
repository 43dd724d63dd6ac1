package org.mailrestore.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.Sha256;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.sql.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a runtime is made of (its database, meters, S3 profiles, fence, bounds, identity and default
 * targets) and the order it is made in: connect, migrate, wire. The runtime's builder and the
 * facade's ({@code Restores.builder()}) are both made of it, so each setting exists once.
 *
 * @param <B> the builder, which each setter answers
 */
public abstract class RuntimeSettings<B extends RuntimeSettings<B>> {

  private static final Logger LOG = LoggerFactory.getLogger(RuntimeSettings.class);

  @Nullable DataSource dataSource;
  @Nullable String jdbcUrl;
  @Nullable String user;
  @Nullable String password;
  String poolName = "mailstore";
  MeterRegistry registry = new SimpleMeterRegistry();
  @Nullable RestoreMetrics metrics;
  Map<String, S3Settings> s3Settings = Map.of();
  @Nullable S3Profiles s3;
  StorageLimits limits = StorageLimits.DEFAULT;
  PathFence fence = PathFence.NONE;
  Concurrency concurrency = Concurrency.forMachine();
  String instanceId = "cli-" + UUID.randomUUID().toString().substring(0, 8);
  int leaseSeconds = RestoreEngine.DEFAULT_LEASE_SECONDS;
  OperationListener listener = OperationListener.NONE;
  List<TargetSpec> defaultTargets = List.of();
  Map<String, String> environment = System.getenv();

  /** This builder, as its own type. */
  protected abstract B self();

  /** A database the caller owns (the service's pool). */
  public B dataSource(DataSource value) {
    dataSource = value;
    return self();
  }

  /** A database the runtime connects to, with a pool sized from the concurrency. */
  public B database(String url, String dbUser, String dbPassword) {
    jdbcUrl = url;
    user = dbUser;
    password = dbPassword;
    return self();
  }

  public B poolName(String value) {
    poolName = value;
    return self();
  }

  public B registry(MeterRegistry value) {
    registry = value;
    return self();
  }

  /** The restore's meters, when the caller made them already (the service's bean). */
  public B metrics(RestoreMetrics value) {
    metrics = value;
    return self();
  }

  public B s3Profiles(Map<String, S3Settings> value) {
    s3Settings = Map.copyOf(value);
    return self();
  }

  /** S3 clients the caller owns and closes. */
  public B s3(S3Profiles value) {
    s3 = value;
    return self();
  }

  /** Where local sources may read files from (the service's allowed roots); default: anywhere. */
  public B fence(PathFence value) {
    fence = value;
    return self();
  }

  public B limits(StorageLimits value) {
    limits = value;
    return self();
  }

  public B concurrency(Concurrency value) {
    concurrency = value;
    return self();
  }

  public B instanceId(String value) {
    instanceId = value;
    return self();
  }

  public B leaseSeconds(int value) {
    leaseSeconds = value;
    return self();
  }

  /** Where restores write when their request names no target. */
  public B defaultTarget(TargetSpec value) {
    return defaultTargets(value == null ? List.of() : List.of(value));
  }

  /**
   * Where restores write when their request names no target: several compose, each taking the kinds
   * of item it carries.
   */
  public B defaultTargets(List<TargetSpec> value) {
    defaultTargets = List.copyOf(value);
    return self();
  }

  /** Who hears of operations ending (notifications); nobody by default. */
  public B listener(OperationListener value) {
    listener = value;
    return self();
  }

  /** Where secrets come from (the process environment by default). */
  public B environment(Map<String, String> value) {
    environment = Map.copyOf(value);
    return self();
  }

  /** Connects (when asked to), migrates the engine's tables, and wires the runtime. */
  protected final RestoreRuntime buildRuntime() {
    // The native SHA-256 loads while the database is opened and migrated.
    Sha256.prepare();
    warnUnlessFileNamesAreUtf8(System.getProperty("sun.jnu.encoding"));
    AutoCloseable owned = null;
    DataSource ds = dataSource;
    if (ds == null) {
      Objects.requireNonNull(jdbcUrl, "a runtime needs a database");
      Database.createIfMissing(jdbcUrl, user, password);
      var pool =
          Database.pool(
              jdbcUrl, user, password, concurrency.databaseConnections(), poolName, registry);
      owned = pool;
      ds = pool;
    }
    try {
      RuntimeTables.migrate(ds, defaultTargets);
      return new RestoreRuntime(this, ds, owned);
    } catch (RuntimeException e) {
      if (owned != null) {
        try {
          owned.close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  /**
   * Java decodes file names in the locale's charset: in the C or POSIX locale a path such as {@code
   * /srv/backups/Entwürfe} cannot be named. Said when the runtime starts, with the remedy.
   */
  private static void warnUnlessFileNamesAreUtf8(String charset) {
    if (charset == null || charset.equalsIgnoreCase("UTF-8") || charset.equalsIgnoreCase("UTF8")) {
      return;
    }
    LOG.warn(
        "file names are decoded as {} (the locale is not UTF-8): paths with non-ASCII characters"
            + " cannot be opened; run with LC_ALL=C.UTF-8 (or another UTF-8 locale)",
        charset);
  }
}
