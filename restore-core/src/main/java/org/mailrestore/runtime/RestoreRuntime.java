package org.mailrestore.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.mailrestore.blob.s3.S3Profiles;
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

/**
 * Everything a restore runs with, wired once: the bookkeeping database (migrated), S3 profiles, the
 * installed source and target kinds, metrics, and the engine. The CLI, the service, the benchmarks
 * and the exporters build one with {@link #builder()}; nothing else wires the engine.
 */
public final class RestoreRuntime implements AutoCloseable {

  private final DataSource dataSource;
  private final @Nullable AutoCloseable ownedPool;
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
  private @Nullable RestoreEngine engine;

  RestoreRuntime(RuntimeSettings<?> b, DataSource dataSource, @Nullable AutoCloseable ownedPool) {
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
  public MailTarget target(@Nullable TargetSpec spec) throws SQLException, IOException {
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
    return verify(source, target == null ? List.of() : List.of(target), options, progress);
  }

  /** The same, of the targets a request named (several composed; the defaults for none). */
  public VerifyReport verify(
      SourceSpec source, List<TargetSpec> targets, Verifier.Options options, ReadCounter progress)
      throws SQLException, IOException {
    try (MailSource from = new CountedSource(openSource(source), progress)) {
      return new Verifier(books.idMap(), targets(targets).readBack(), concurrency.accounts())
          .verify(from, options);
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

  /** How a runtime is made: the settings, then {@link #build()}. */
  public static final class Builder extends RuntimeSettings<Builder> {

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    /** Connects (when asked to), migrates the engine's tables, and wires the runtime. */
    public RestoreRuntime build() {
      return buildRuntime();
    }
  }
}
