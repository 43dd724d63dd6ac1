package org.mailrestore.restore;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.bookkeeping.WorkloadGauges;
import org.mailrestore.restore.coordination.BackgroundRuns;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.runtime.RuntimeSettings;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/**
 * The one way into the engine, for the REST service, the CLI, the console and the benchmarks:
 * restores are submitted, followed, paced, cancelled and resumed here, and the questions a person
 * asks before and after one (what does this source hold, what would a restore do, does the target
 * hold what the source holds) are answered here. Built with {@link #builder()}; the engine, its
 * bookkeeping and the wiring stay behind it.
 */
public final class Restores implements AutoCloseable {

  private static final long AWAIT_POLL_MILLIS = 200;
  private static final Duration LONGEST_WAIT = Duration.ofDays(365L * 100);
  private static final Duration WRAP_UP = Duration.ofSeconds(10);

  private final RestoreRuntime runtime;
  private final RestoreEngine engine;
  private final Bookkeeping books;
  private final OperationStore operations;
  private final BackgroundRuns runs;
  private @Nullable WorkloadGauges gauges;

  private Restores(RestoreRuntime runtime) {
    this.runtime = runtime;
    this.engine = runtime.engine();
    this.books = runtime.bookkeeping();
    this.operations = books.operations();
    this.runs = new BackgroundRuns(engine);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The id of this instance among those sharing the database. */
  public String instanceId() {
    return runtime.instanceId();
  }

  // ---- operations ------------------------------------------------------------------------------

  /**
   * Records a restore, queued, and starts running it on this instance in the background. With an
   * idempotency key already used for the same request, it answers the operation created then and
   * starts nothing new.
   *
   * @param pace how fast it may go ({@link Pace#UNLIMITED} for no bound)
   * @throws IdempotencyKeyReusedException when the key was used for another request
   */
  public Submission submit(RestoreRequest request, String idempotencyKey, Pace pace)
      throws SQLException {
    Submission submission = engine.submission(request, idempotencyKey);
    if (submission.created() && pace.isLimited()) {
      books.throttles().set(submission.id(), pace);
    }
    runs.start(submission.id());
    return submission;
  }

  /** An operation as it stands now, with its rates and ETA. */
  public Optional<OperationView> find(String id) throws SQLException {
    Instant now = Instant.now();
    return operations.find(id).map(s -> OperationView.of(s, now));
  }

  /**
   * An operation as it stands now.
   *
   * @throws NoSuchElementException when there is no such operation
   */
  public OperationView get(String id) throws SQLException {
    return OperationView.of(require(id), Instant.now());
  }

  /**
   * Operations, newest first, a page at a time; {@code state} null for all.
   *
   * @throws org.mailrestore.kind.FieldProblems.Invalid when the page or its size is out of bounds
   */
  public Page<OperationView> list(OperationState state, int page, int size) throws SQLException {
    List<OperationView> views = new ArrayList<>();
    Instant now = Instant.now();
    for (String id : operations.list(state, Page.offset(page, size), size + 1)) {
      operations.find(id).ifPresent(s -> views.add(OperationView.of(s, now)));
    }
    return Page.of(views, page, size);
  }

  /**
   * Waits until the operation ends, this instance stops running it (for a shutdown, or stopped by
   * an Error: {@link #stoppedBy}), or {@code timeout} passes; answers it as it then stands.
   */
  public OperationView await(String id, Duration timeout) throws SQLException {
    // A timeout of centuries (a local run's "as long as it takes") must not overflow.
    long wait = timeout.compareTo(LONGEST_WAIT) >= 0 ? LONGEST_WAIT.toNanos() : timeout.toNanos();
    long deadline = System.nanoTime() + wait;
    // Marked before each read, so that an end between the read and the wait is not missed.
    long mark = engine.endingsSoFar();
    OperationSummary s = require(id);
    while (!s.state().isFinished()
        && System.nanoTime() < deadline
        && !(runs.isStopping() && !runs.isActive(id))
        && !(runs.stoppedBy(id) != null && !runs.isActive(id))) {
      // An operation run here wakes this at its end; one run by another instance is polled.
      long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
      try {
        engine.awaitEndingAfter(mark, Math.min(AWAIT_POLL_MILLIS, left));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      mark = engine.endingsSoFar();
      s = require(id);
    }
    return OperationView.of(s, Instant.now());
  }

  /**
   * The Error of the JVM (out of memory, say) that stopped this instance's run of an operation,
   * which stays RUNNING and resumable; null when none did.
   */
  public @Nullable Error stoppedBy(String id) {
    return runs.stoppedBy(id);
  }

  /**
   * Asks an operation to stop: wherever it runs, new work stops, clusters in flight commit, and it
   * ends CANCELLED, resumable. An operation nobody runs is cancelled at once.
   */
  public OperationView cancel(String id) throws SQLException {
    require(id);
    engine.cancel(id);
    return get(id);
  }

  /**
   * Continues a cancelled, failed or interrupted operation from its last committed clusters, on
   * this instance.
   *
   * @throws IllegalStateException when it runs, or has completed (restoring again is a new
   *     operation)
   */
  public OperationView resume(String id) throws SQLException {
    OperationSummary s = require(id);
    if (s.state() == OperationState.COMPLETED || s.state() == OperationState.PARTIAL) {
      throw new IllegalStateException(
          "operation " + id + " ended " + s.state() + "; restoring again is a new operation");
    }
    if (s.state().isFinished()) {
      runs.awaitEnd(id, WRAP_UP); // just cancelled or failed here: its run is wrapping up
    }
    if (runs.isActive(id) || books.leases().hasLiveCoordinator(id)) {
      throw new IllegalStateException("operation " + id + " is running");
    }
    operations.requeue(id);
    runs.run(id);
    return get(id);
  }

  /**
   * Runs an operation on this instance too, in the background: resumes it when it was interrupted
   * or stopped, or helps with its accounts when another instance runs it. An operation that has
   * completed is left as it is.
   */
  public OperationView join(String id) throws SQLException {
    require(id);
    runs.run(id);
    return get(id);
  }

  /** Sets how fast an operation may go; it applies within seconds wherever it runs. */
  public Pace pace(String id, Pace pace) throws SQLException {
    require(id);
    books.throttles().set(id, pace);
    return books.throttles().get(id);
  }

  /** How fast an operation may go. */
  public Pace pace(String id) throws SQLException {
    require(id);
    return books.throttles().get(id);
  }

  /** The operation's report: per account restored, skipped and unrestored, with reasons. */
  public OperationReport report(String id) throws SQLException {
    return OperationReport.of(books, id)
        .orElseThrow(() -> new NoSuchElementException("no operation " + id));
  }

  /** What was not restored as it is in the source, and why, a page at a time. */
  public Page<FailureRecord> failures(String id, int page, int size) throws SQLException {
    require(id);
    return Page.of(books.failures().list(id, Page.offset(page, size), size + 1), page, size);
  }

  /** The accounts of an operation and their progress. */
  public List<AccountProgress> accounts(String id) throws SQLException {
    require(id);
    return books.accounts().list(id);
  }

  private OperationSummary require(String id) throws SQLException {
    return operations.find(id).orElseThrow(() -> new NoSuchElementException("no operation " + id));
  }

  // ---- before and after a restore
  // ----------------------------------------------------------------

  /** What a source holds: accounts, items by type, bytes, and the time range it can restore. */
  public SourceInspection inspect(SourceSpec source) throws IOException {
    try (MailSource opened = runtime.openSource(source)) {
      return SourceInspection.of(opened);
    }
  }

  /** What a restore would do, read from the source and the target, writing nothing. */
  public RestorePlan dryRun(RestoreRequest request) throws SQLException, IOException {
    try (MailSource from = runtime.openSource(request.source())) {
      MailTarget into = runtime.targets(request.targets());
      return RestorePlan.of(
          from, runtime.describe(request.source()), into.provisioning(), into.describe(), request);
    }
  }

  /** Compares a target (the default one for null) with the source it was restored from. */
  public VerifyReport verify(SourceSpec source, TargetSpec target, Verifier.Options options)
      throws SQLException, IOException {
    return verify(source, target, options, new ReadCounter());
  }

  /**
   * Compares a target (the default one for null) with the source it was restored from, counting
   * what it reads from the source into {@code progress}.
   */
  public VerifyReport verify(
      SourceSpec source, TargetSpec target, Verifier.Options options, ReadCounter progress)
      throws SQLException, IOException {
    return runtime.verify(source, target, options, progress);
  }

  /**
   * Compares what an operation restored with its source, as it restored it: the same point in time,
   * the accounts under the names it gave them, into the targets it wrote, with the items it
   * recorded as not restored excused (they are in its report).
   *
   * @param accounts the accounts to compare, by address; empty for those the operation selected
   * @param checkBlobs whether each blob is read back and compared byte for byte
   * @throws IllegalStateException when the operation's request is not known
   */
  public VerifyReport verifyOperation(
      String id, java.util.Set<String> accounts, boolean checkBlobs, ReadCounter progress)
      throws SQLException, IOException {
    RestoreRequest request = require(id).request();
    if (request == null) {
      throw new IllegalStateException("operation " + id + " has no request to verify by");
    }
    java.util.Set<String> known = new java.util.HashSet<>();
    Page<FailureRecord> failures;
    int page = 0;
    do {
      failures = failures(id, page++, Page.MAX_SIZE);
      failures.items().stream()
          .map(f -> Verifier.Options.key(f.sourceAccountId(), f.itemId()))
          .forEach(known::add);
    } while (failures.hasMore());
    return runtime.verify(
        request.source(),
        request.targets(),
        OperationVerifyOptions.of(request, known, checkBlobs, accounts),
        progress);
  }

  /**
   * Writes accounts of a target (the default one for null) out in a format, counting what it reads
   * into {@code progress}.
   *
   * @param accountNames the accounts, by address
   */
  public ExportReport export(
      ExportFormat format,
      TargetSpec target,
      List<String> accountNames,
      Path out,
      ReadCounter progress)
      throws SQLException, IOException {
    return runtime.export(format, target, accountNames, out, progress);
  }

  /**
   * Checks that the default target can be written now, without writing: what a readiness probe
   * asks. Answers the target for people.
   *
   * @throws IOException saying what is wrong
   */
  public String checkTarget() throws SQLException, IOException {
    MailTarget target = runtime.target(null);
    target.check();
    return target.describe();
  }

  // ---- this instance
  // -------------------------------------------------------------------------------

  /**
   * Resumes, every {@code every}, the operations a crash or a shutdown interrupted, and helps with
   * the phase-2 accounts of operations other instances run.
   */
  public void startBackground(Duration every) {
    runs.startScanning(every);
  }

  /**
   * Refreshes the gauges of the work in the database (operations and accounts by state), made on
   * the registry the first time.
   */
  public synchronized void refreshWorkloadGauges() throws SQLException {
    if (gauges == null) {
      gauges = new WorkloadGauges(operations, runtime.registry());
    }
    gauges.refresh();
  }

  /**
   * Stops every operation running here: no new cluster starts, clusters in flight commit within
   * {@code grace}, and the operations stay resumable by the next start.
   */
  public void shutdown(Duration grace) {
    runs.shutdown(grace);
  }

  /**
   * Stops what runs here (clusters in flight commit, within {@link #WRAP_UP}; the operations stay
   * resumable), then lets go of the database and the targets.
   */
  @Override
  public void close() {
    runs.shutdown(WRAP_UP);
    runtime.close();
  }

  /** How the engine behind the facade is made: its database, storage, bounds and identity. */
  public static final class Builder extends RuntimeSettings<Builder> {

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * Connects, migrates the engine's tables (and the default targets'), and opens the default
     * targets when there are some, so that a facade is only made with a usable target.
     *
     * @throws IOException when a default target cannot be opened (saying why)
     */
    public Restores build() throws SQLException, IOException {
      RestoreRuntime built = buildRuntime();
      try {
        if (!built.defaultTargets().isEmpty()) {
          built.target(null);
        }
        return new Restores(built);
      } catch (SQLException | IOException | RuntimeException e) {
        built.close();
        throw e;
      }
    }
  }
}
