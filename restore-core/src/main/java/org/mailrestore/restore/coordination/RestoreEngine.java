package org.mailrestore.restore.coordination;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Submission;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.data.AccountWorkers;
import org.mailrestore.restore.provisioning.Provisioner;
import org.mailrestore.restore.run.CancelSignal;
import org.mailrestore.restore.run.DatabaseRetry;
import org.mailrestore.restore.run.HeldLeases;
import org.mailrestore.restore.run.LogContextExecutor;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.OperationRuns;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.SourceOpener;
import org.mailrestore.restore.run.TargetOpener;
import org.mailrestore.restore.run.Workers;
import org.mailrestore.restore.shares.SharesRestorer;
import org.mailrestore.source.SourceFormatException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs restore operations. A request is persisted as an operation first; running it claims the
 * operation's coordination (a lease in the database) and runs the three phases in order. During
 * phase 2 every instance sharing the database may help: accounts are claimed one by one with
 * leases, which a heartbeat renews, so an instance that dies loses its accounts to the others after
 * one lease. Everything is recorded as it goes: an interrupted operation is run again and continues
 * from each account's committed clusters.
 */
public final class RestoreEngine implements AutoCloseable {

  /** How long a lease outlives its last renewal: the time to notice a dead instance. */
  public static final int DEFAULT_LEASE_SECONDS = 30;

  /** How long the restore waits out a database outage before giving up. */
  static final Duration DATABASE_PATIENCE = Duration.ofMinutes(10);

  /** The log context key (MDC) holding the operation id, on every line of an operation. */
  public static final String LOG_OPERATION = "operation";

  private static final Logger LOG = LoggerFactory.getLogger(RestoreEngine.class);
  private static final long LEASE_POLL_MILLIS = 250;
  private static final int LARGE_COPIES = 2;

  private final Bookkeeping books;
  private final OperationStore operations;
  private final OperationRuns runs;
  private final TargetOpener targets;
  private final String instanceId;
  private final int leaseSeconds;
  private final Concurrency concurrency;
  private final Semaphore blobPermits;
  private final Semaphore largePermits = new Semaphore(LARGE_COPIES);
  private final ExecutorService io =
      new LogContextExecutor(Executors.newVirtualThreadPerTaskExecutor());
  private final RunningHere running = new RunningHere();
  private final DatabaseRetry db;
  private final Records records;
  private final Heartbeat heartbeat;
  private final PhaseClocks phases;
  private final Submissions submissions;
  private final OperationNotices notices;
  private final AccountClaims claims;
  private final RunEndings endings;

  public RestoreEngine(
      Bookkeeping books,
      SourceOpener sources,
      TargetOpener targets,
      RestoreMetrics metrics,
      String instanceId,
      int leaseSeconds,
      Concurrency concurrency) {
    this.books = books;
    this.operations = books.operations();
    this.runs = new OperationRuns(sources, targets, books);
    this.targets = targets;
    this.instanceId = instanceId;
    this.leaseSeconds = leaseSeconds;
    this.concurrency = concurrency;
    this.blobPermits = new Semaphore(concurrency.blobTransfers());
    this.db = new DatabaseRetry(DATABASE_PATIENCE, metrics::databaseRetry);
    HeldLeases leases = new HeldLeases(leaseSeconds);
    this.records = new Records(books, db, metrics, instanceId, leaseSeconds, leases);
    this.phases = new PhaseClocks(operations, metrics);
    this.heartbeat =
        new Heartbeat(
            operations,
            books.leases(),
            instanceId,
            leaseSeconds,
            running.signals(),
            leases,
            phases);
    this.submissions = new Submissions(operations, sources);
    this.notices = new OperationNotices(books);
    this.claims = new AccountClaims(books.claims(), operations, db, notices);
    this.endings = new RunEndings(records, notices);
  }

  /** Who hears of operations this engine coordinates ending. */
  public void listener(OperationListener value) {
    notices.listener(value);
  }

  public OperationStore operations() {
    return operations;
  }

  /** Every table of the engine: operations, accounts, failures, the id map. */
  public Bookkeeping bookkeeping() {
    return books;
  }

  public String instanceId() {
    return instanceId;
  }

  /**
   * Records a new operation, queued, and returns its id. With an idempotency key already used for
   * the same request, it returns the operation created then instead.
   *
   * @throws IllegalArgumentException when the key was used for another request
   */
  public String submit(RestoreRequest request, String idempotencyKey) throws SQLException {
    return submission(request, idempotencyKey).id();
  }

  /** {@link #submit}, telling a new operation from a replay of an idempotency key. */
  public Submission submission(RestoreRequest request, String idempotencyKey) throws SQLException {
    // Recorded with the operation: whoever resumes it or helps with it, another process or a
    // service sharing the database, writes where it started, never into targets of its own.
    RestoreRequest recorded =
        request.targets().isEmpty() ? request.withTargets(targets.defaults()) : request;
    return submissions.submit(recorded, idempotencyKey);
  }

  /**
   * Runs (or resumes) an operation to its end and returns how it ended. When another live instance
   * coordinates it, this one helps with phase 2 and waits; when that coordinator dies, this one
   * takes the operation over. Returns early only when stopped for a shutdown.
   *
   * @throws NoSuchElementException when there is no such operation
   * @throws IllegalStateException when this instance is running it already
   * @throws SQLException when the database fails for longer than the restore waits; the operation
   *     stays resumable
   */
  public OperationSummary run(String operationId) throws SQLException {
    return run(operationId, true);
  }

  /**
   * {@link #run}, for an operation this instance found interrupted, or one just submitted, rather
   * than one it was asked to run again: one that has ended meanwhile (cancelled, failed) is left as
   * it is.
   */
  public OperationSummary runUnlessEnded(String operationId) throws SQLException {
    return run(operationId, false);
  }

  private OperationSummary run(String operationId, boolean resumeEnded) throws SQLException {
    OperationSummary existing = requireExists(operationId);
    if (existing.request() == null) {
      if (existing.state() != OperationState.FAILED) {
        endings.failForGood(existing, RunEndings.UNREADABLE_REQUEST, null);
      }
      return requireExists(operationId);
    }
    if (existing.state() == OperationState.COMPLETED
        || existing.state() == OperationState.PARTIAL
        || (!resumeEnded && existing.state().isFinished())) {
      return existing; // done; restoring the same backup again is a new operation
    }
    CancelSignal cancel = new CancelSignal();
    if (!running.enter(operationId, cancel)) {
      throw new IllegalStateException("operation " + operationId + " is running on this instance");
    }
    startHeartbeat();
    try (var logContext = MDC.putCloseable(LOG_OPERATION, operationId)) {
      long helpedNanos = 0; // phase 2 done here while another instance held the operation
      for (boolean firstLook = resumeEnded; ; firstLook = false) {
        if (books.leases().claimCoordination(operationId, instanceId, leaseSeconds)) {
          try {
            OperationSummary operation = operations.find(operationId).orElseThrow();
            // Only what the caller asked to run is resumed; once helping, an operation another
            // instance ended (cancelled included) stays as it ended.
            if (firstLook || !operation.state().isFinished()) {
              long helped = helpedNanos / 1_000_000;
              endings.guard(operation, () -> coordinate(operation, cancel, helped));
            }
          } finally {
            books.leases().releaseCoordination(operationId, instanceId);
          }
          return operations.find(operationId).orElseThrow();
        }
        OperationSummary operation = operations.find(operationId).orElseThrow();
        boolean endedElsewhere =
            operation.state().isFinished()
                && (!firstLook || operation.state() != OperationState.CANCELLED);
        if (endedElsewhere || cancel.raised()) {
          return operation;
        }
        long helping = System.nanoTime();
        if (assist(operation, cancel)) {
          helpedNanos += System.nanoTime() - helping;
        } else {
          DatabaseRetry.sleep(LEASE_POLL_MILLIS, "accounts held elsewhere");
        }
      }
    } finally {
      running.leave(operationId);
    }
  }

  /**
   * Helps with an operation another instance coordinates: restores the phase-2 accounts nobody
   * holds, then returns (what a worker does between polls). Returns false when there was nothing to
   * help with.
   */
  public boolean assist(String operationId) throws SQLException {
    OperationSummary operation = requireExists(operationId);
    CancelSignal cancel = new CancelSignal();
    if (!running.enter(operationId, cancel)) {
      return false;
    }
    startHeartbeat();
    try (var logContext = MDC.putCloseable(LOG_OPERATION, operationId)) {
      return assist(operation, cancel);
    } finally {
      running.leave(operationId);
    }
  }

  private OperationSummary requireExists(String operationId) throws SQLException {
    return operations
        .find(operationId)
        .orElseThrow(() -> new NoSuchElementException("no operation " + operationId));
  }

  /**
   * Runs an operation's phases as its coordinator.
   *
   * @param helpedMillis phase 2 done here before, while a coordinator (dead, it turned out) held
   *     the operation: part of phase 2's time
   */
  private void coordinate(OperationSummary operation, CancelSignal cancel, long helpedMillis)
      throws SQLException {
    String operationId = operation.id();
    try (OperationRun run = runs.open(operation, cancel)) {
      if (operation.state().isFinished()) {
        operations.requeue(operationId); // asked to resume: pending until its accounts are free
      }
      if (!claims.await(run, workers(run.request()))) {
        endings.stopped(operationId, cancel);
        return;
      }
      operations.markRunning(operationId);
      LOG.info("operation {}: restoring from {}", operationId, operation.source());
      phases.run(
          run.id(),
          Phase.PROVISIONING,
          0,
          () -> new Provisioner(run, records, workers(run.request())).run());
      if (!cancel.raised()) {
        notices.provisioned(operationId);
      }
      if (!run.request().selection().provisioningOnly()) {
        phases.run(run.id(), Phase.DATA, helpedMillis, () -> restoreAccounts(run));
        if (!cancel.raised()) {
          phases.run(run.id(), Phase.SHARES, 0, () -> new SharesRestorer(run, records).run());
        }
      }
      if (cancel.raised()) {
        endings.stopped(operationId, cancel);
        return;
      }
      endings.finished(run);
    } catch (SourceFormatException | IOException | UncheckedIOException e) {
      // The source (or the target) cannot be reached even after their own retries: FAILED,
      // resumable once it is back, rather than RUNNING and retried for ever.
      endings.unreachable(operationId, e);
    }
  }

  /** Restores the phase-2 accounts nobody holds; false when the operation is not in phase 2. */
  private boolean assist(OperationSummary operation, CancelSignal cancel) throws SQLException {
    if (operation.state() != OperationState.RUNNING
        || operation.phase() != Phase.DATA
        || operation.request() == null) {
      return false;
    }
    LOG.info("operation {}: helping with phase 2", operation.id());
    try (OperationRun run = runs.open(operation, cancel)) {
      restoreAccounts(run);
      return true;
    } catch (SourceFormatException | IOException | UncheckedIOException e) {
      LOG.warn("operation {}: cannot help: {}", operation.id(), e.getMessage());
      return false;
    }
  }

  /** The bounds of one operation: the request may lower the engine's number of accounts. */
  private Workers workers(RestoreRequest request) {
    int accounts =
        request.concurrentAccounts() > 0
            ? Math.min(request.concurrentAccounts(), concurrency.accounts())
            : concurrency.accounts();
    return new Workers(
        new Concurrency(accounts, concurrency.clustersPerAccount(), concurrency.blobTransfers()),
        blobPermits,
        largePermits,
        io);
  }

  /** Phase 2 of an operation: its accounts, by the workers of this instance. */
  private void restoreAccounts(OperationRun run) throws SQLException {
    new AccountWorkers(run, records, workers(run.request())).run();
  }

  /**
   * Asks an operation to stop: wherever it runs, new work stops, clusters in flight finish, and it
   * ends CANCELLED, resumable with {@link #run}. An operation nobody runs is marked at once.
   */
  public void cancel(String operationId) throws SQLException {
    operations.cancel(operationId);
    CancelSignal here = running.signal(operationId);
    if (here != null) {
      here.raise(CancelSignal.Reason.CANCELLED);
    }
  }

  /**
   * A mark of the operations this engine has ended so far, to wait from with {@link
   * #awaitEndingAfter}.
   */
  public long endingsSoFar() {
    return notices.endingsSoFar();
  }

  /**
   * Waits {@code millis}, or less when an operation of this engine has ended since {@code mark}:
   * who awaits an operation run here learns of its end at once, not at its next poll.
   */
  public void awaitEndingAfter(long mark, long millis) throws InterruptedException {
    notices.awaitEndingAfter(mark, millis);
  }

  /** Operations interrupted by a crash or a shutdown, which {@link #run} resumes. */
  public List<String> interrupted() throws SQLException {
    return books.leases().orphaned();
  }

  /** Operations in phase 2 that this instance could help with. */
  public List<String> needingHelp() throws SQLException {
    return books.leases().needingHelp();
  }

  /** Whether this instance is running (or helping with) the operation now. */
  public boolean isRunning(String operationId) {
    return running.contains(operationId);
  }

  private void startHeartbeat() {
    heartbeat.start();
  }

  /**
   * Stops every operation running here for a shutdown: no new cluster starts, clusters in flight
   * finish, and the operations stay RUNNING, to be resumed by the next start.
   */
  public void shutdown(Duration grace) {
    running.stopAll(CancelSignal.Reason.SHUTDOWN, grace);
    close();
  }

  @Override
  public void close() {
    heartbeat.stop();
    io.shutdown();
  }
}
