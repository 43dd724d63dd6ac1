package org.mailrestore.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.Sha256;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.restore.run.SourceOpener;
import org.mailrestore.restore.run.TargetOpener;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a restore runs with, wired once: the bookkeeping database (migrated), S3 profiles, the
 * installed source and target kinds, metrics, and the engine. The CLI, the service, the benchmarks
 * and the exporters build one with {@link #builder()}; nothing else wires the engine.
 */
public final class RestoreRuntime implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreRuntime.class);

  private final DataSource dataSource;
  private final AutoCloseable ownedPool;
  private final MeterRegistry registry;
  private final RestoreMetrics metrics;
  private final S3Profiles s3;
  private final boolean ownedS3;
  private final Concurrency concurrency;
  private final OperationListener listener;
  private final String instanceId;
  private final int leaseSeconds;
  private final Bookkeeping books;
  private final Sources sources;
  private final Targets targets;
  private final List<RestoreEngine> engines = new ArrayList<>();
  private RestoreEngine engine;

  private RestoreRuntime(Builder b, DataSource dataSource, AutoCloseable ownedPool) {
    this.dataSource = dataSource;
    this.ownedPool = ownedPool;
    this.registry = b.registry;
    this.metrics = b.metrics != null ? b.metrics : new RestoreMetrics(b.registry);
    this.ownedS3 = b.s3 == null;
    this.s3 = b.s3 != null ? b.s3 : new S3Profiles(b.s3Settings, b.registry);
    this.concurrency = b.concurrency;
    this.listener = b.listener;
    this.instanceId = b.instanceId;
    this.leaseSeconds = b.leaseSeconds;
    this.books = new Bookkeeping(dataSource);
    this.sources = new Sources(new SourceContext(s3, b.limits, b.registry, null, b.fence));
    this.targets =
        new Targets(
            b.defaultTargets,
            new TargetContext(dataSource, s3, b.limits, b.registry, b.environment));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The engine of this runtime (one per runtime, created on first use). */
  public synchronized RestoreEngine engine() {
    if (engine == null) {
      engine = newEngine(instanceId, leaseSeconds);
    }
    return engine;
  }

  /**
   * Another engine on the same database, sources and targets: a second instance of the service, as
   * tests and benchmarks start them. Closed with the runtime.
   */
  public RestoreEngine newEngine(String instance, int lease) {
    return newEngine(instance, lease, metrics);
  }

  /** Another engine, with meters of its own (an instance of its own, as a test sees it). */
  public synchronized RestoreEngine newEngine(
      String instance, int lease, RestoreMetrics ownMetrics) {
    RestoreEngine created =
        new RestoreEngine(books, sources, targets, ownMetrics, instance, lease, concurrency);
    created.listener(listener);
    engines.add(created);
    return created;
  }

  /** How this runtime opens sources (for an engine wired by hand, as fault tests do). */
  public SourceOpener sources() {
    return sources;
  }

  /** How this runtime opens targets. */
  public TargetOpener targetOpener() {
    return targets;
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** The id this runtime's engine has among the instances sharing the database. */
  public String instanceId() {
    return instanceId;
  }

  public Bookkeeping bookkeeping() {
    return books;
  }

  public RestoreMetrics metrics() {
    return metrics;
  }

  public MeterRegistry registry() {
    return registry;
  }

  public S3Profiles s3() {
    return s3;
  }

  public Concurrency concurrency() {
    return concurrency;
  }

  /** Opens a source (checked against its kind). */
  public MailSource openSource(SourceSpec spec) throws IOException {
    return sources.open(spec, org.mailrestore.restore.Selection.ALL);
  }

  /** The source for people. */
  public String describe(SourceSpec spec) {
    return sources.describe(spec);
  }

  /** A target (the default ones for null, composed when several), opened once and shared. */
  public MailTarget target(TargetSpec spec) throws SQLException, IOException {
    return targets.open(spec == null ? List.of() : List.of(spec));
  }

  /** The targets a request names (several composed; the defaults for none). */
  public MailTarget targets(List<TargetSpec> specs) throws SQLException, IOException {
    return targets.open(specs);
  }

  /** The default targets' specs: empty when none is configured. */
  public List<TargetSpec> defaultTargets() {
    return targets.defaults();
  }

  /** Compares a target (the default one for null) with the source it was restored from. */
  public VerifyReport verify(SourceSpec source, TargetSpec target, Verifier.Options options)
      throws SQLException, IOException {
    return verify(source, target, options, new ReadCounter());
  }

  /** The same, counting what it reads from the source into {@code progress}. */
  public VerifyReport verify(
      SourceSpec source, TargetSpec target, Verifier.Options options, ReadCounter progress)
      throws SQLException, IOException {
    try (MailSource from = new CountedSource(openSource(source), progress)) {
      return new Verifier(books.idMap(), target(target).readBack()).verify(from, options);
    }
  }

  /**
   * Writes accounts of a target (the default one for null) out in a format.
   *
   * @param accountNames the accounts, by address
   */
  public ExportReport export(
      ExportFormat format, TargetSpec target, List<String> accountNames, Path out)
      throws SQLException, IOException {
    return export(format, target, accountNames, out, new ReadCounter());
  }

  /** The same, counting what it reads from the store into {@code progress}. */
  public ExportReport export(
      ExportFormat format,
      TargetSpec target,
      List<String> accountNames,
      Path out,
      ReadCounter progress)
      throws SQLException, IOException {
    RestoredStore store = target(target).readBack();
    List<String> ids = new ArrayList<>();
    for (String name : accountNames) {
      ids.add(
          store
              .account(name)
              .orElseThrow(() -> new NoSuchElementException("no account " + name + " in the store"))
              .ref()
              .id());
    }
    try (MailSource from = new CountedSource(store.asSource(), progress)) {
      return format.export(from, ids, out);
    }
  }

  @Override
  public synchronized void close() {
    // The engines' heartbeats stop before the pool they use closes.
    engines.forEach(RestoreEngine::close);
    targets.close();
    if (ownedS3) {
      s3.close();
    }
    if (ownedPool != null) {
      try {
        ownedPool.close();
      } catch (Exception e) {
        // Closing a pool fails only when it is closed already.
      }
    }
  }

  /** How a runtime is made. */
  public static final class Builder {
    private DataSource dataSource;
    private String jdbcUrl;
    private String user;
    private String password;
    private String poolName = "mailstore";
    private MeterRegistry registry = new SimpleMeterRegistry();
    private RestoreMetrics metrics;
    private Map<String, S3Settings> s3Settings = Map.of();
    private S3Profiles s3;
    private StorageLimits limits = StorageLimits.DEFAULT;
    private PathFence fence = PathFence.NONE;
    private Concurrency concurrency = Concurrency.forMachine();
    private String instanceId = "cli-" + UUID.randomUUID().toString().substring(0, 8);
    private int leaseSeconds = RestoreEngine.DEFAULT_LEASE_SECONDS;
    private OperationListener listener = OperationListener.NONE;
    private List<TargetSpec> defaultTargets = List.of();
    private Map<String, String> environment = System.getenv();

    private Builder() {}

    /** A database the caller owns (the service's pool). */
    public Builder dataSource(DataSource value) {
      dataSource = value;
      return this;
    }

    /** A database the runtime connects to, with a pool sized from the concurrency. */
    public Builder database(String url, String dbUser, String dbPassword) {
      jdbcUrl = url;
      user = dbUser;
      password = dbPassword;
      return this;
    }

    public Builder poolName(String value) {
      poolName = value;
      return this;
    }

    public Builder registry(MeterRegistry value) {
      registry = value;
      return this;
    }

    /** The restore's meters, when the caller made them already (the service's bean). */
    public Builder metrics(RestoreMetrics value) {
      metrics = value;
      return this;
    }

    public Builder s3Profiles(Map<String, S3Settings> value) {
      s3Settings = Map.copyOf(value);
      return this;
    }

    /** S3 clients the caller owns and closes. */
    public Builder s3(S3Profiles value) {
      s3 = value;
      return this;
    }

    /** Where local sources may read files from (the service's allowed roots); default: anywhere. */
    public Builder fence(PathFence value) {
      fence = value;
      return this;
    }

    public Builder limits(StorageLimits value) {
      limits = value;
      return this;
    }

    public Builder concurrency(Concurrency value) {
      concurrency = value;
      return this;
    }

    public Builder instanceId(String value) {
      instanceId = value;
      return this;
    }

    public Builder leaseSeconds(int value) {
      leaseSeconds = value;
      return this;
    }

    /** Where restores write when their request names no target. */
    public Builder defaultTarget(TargetSpec value) {
      return defaultTargets(value == null ? List.of() : List.of(value));
    }

    /**
     * Where restores write when their request names no target: several compose, each taking the
     * kinds of item it carries.
     */
    public Builder defaultTargets(List<TargetSpec> value) {
      defaultTargets = List.copyOf(value);
      return this;
    }

    /** Who hears of operations ending (notifications); nobody by default. */
    public Builder listener(OperationListener value) {
      listener = value;
      return this;
    }

    /** Where secrets come from (the process environment by default). */
    public Builder environment(Map<String, String> value) {
      environment = Map.copyOf(value);
      return this;
    }

    /** Connects (when asked to), migrates the engine's tables, and wires the runtime. */
    public RestoreRuntime build() {
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
     * Java decodes file names in the locale's charset: in the C or POSIX locale a path such as
     * {@code /srv/backups/Entwürfe} cannot be named. Said when the runtime starts, with the remedy.
     */
    private static void warnUnlessFileNamesAreUtf8(String charset) {
      if (charset == null
          || charset.equalsIgnoreCase("UTF-8")
          || charset.equalsIgnoreCase("UTF8")) {
        return;
      }
      LOG.warn(
          "file names are decoded as {} (the locale is not UTF-8): paths with non-ASCII characters"
              + " cannot be opened; run with LC_ALL=C.UTF-8 (or another UTF-8 locale)",
          charset);
    }
  }
}
