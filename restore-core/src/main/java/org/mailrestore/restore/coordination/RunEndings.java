package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.bookkeeping.OperationRetries;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.run.CancelSignal;
import org.mailrestore.restore.run.DatabaseRetry;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.source.SourceChangedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a run of an operation ends. Run to its end: COMPLETED, PARTIAL or FAILED by its accounts.
 * Stopped: CANCELLED, or left RUNNING for the next start after a shutdown. Stopped by an error: an
 * error no retry can cure (a fault of ours, a value out of range, a database refusal) ends the
 * operation FAILED at once, with an {@link FailureReason#INTERNAL_ERROR} failure; a database error
 * that lasted longer than a run waits holds the next run back, longer each time, and ends the
 * operation FAILED after {@link #MAX_ATTEMPTS} such runs. An Error (the JVM failing) passes on, the
 * operation left resumable, and is counted the same way: a service that resumes it after each lease
 * gives up after as many runs.
 */
final class RunEndings {

  private static final Logger LOG = LoggerFactory.getLogger(RunEndings.class);

  static final String UNREADABLE_REQUEST =
      "the operation's stored request cannot be read (stored by another version, or holding a"
          + " value now refused); submit the restore again";

  /** Runs stopped by database errors or Errors of the JVM before an operation ends FAILED. */
  static final int MAX_ATTEMPTS = 8;

  private static final long FIRST_RETRY_SECONDS = 10;
  private static final long LAST_RETRY_SECONDS = 300;

  /** A run of an operation. */
  @FunctionalInterface
  interface Run {
    void run() throws SQLException;
  }

  private final OperationStore operations;
  private final OperationRetries retries;
  private final Records records;
  private final OperationNotices notices;

  RunEndings(Records records, OperationNotices notices) {
    this.operations = records.books().operations();
    this.retries = records.books().retries();
    this.records = records;
    this.notices = notices;
  }

  /**
   * Ends a run that went to its end, by what its accounts came to. A source removed or replaced by
   * then is recorded as the operation's failure: it does not end COMPLETED on what it cannot know
   * complete.
   */
  void finished(OperationRun run) throws SQLException {
    String operationId = run.id();
    try {
      run.confirmSource();
    } catch (SourceChangedException e) {
      Phase last = run.request().selection().provisioningOnly() ? Phase.PROVISIONING : Phase.SHARES;
      records.record(operationId, last, FailureReason.SOURCE_CHANGED, "", 0, "", e.getMessage());
    }
    OperationState state = finalState(operationId);
    operations.finish(operationId, state, null);
    LOG.info("operation {}: {}", operationId, state);
    notices.ended(operationId);
  }

  private OperationState finalState(String operationId) throws SQLException {
    List<AccountProgress> accounts = records.books().accounts().list(operationId);
    OperationSummary summary = operations.find(operationId).orElseThrow();
    long failedAccounts = accounts.stream().filter(a -> a.state() == AccountState.FAILED).count();
    if (!accounts.isEmpty() && failedAccounts == accounts.size()) {
      return OperationState.FAILED;
    }
    boolean partial =
        failedAccounts > 0
            || summary.counts().errors() > 0
            || accounts.stream().anyMatch(a -> a.state() == AccountState.PARTIAL);
    return partial ? OperationState.PARTIAL : OperationState.COMPLETED;
  }

  /** Ends a run stopped by its signal: CANCELLED, or left as it is for the next start. */
  void stopped(String operationId, CancelSignal cancel) throws SQLException {
    if (cancel.reason() == CancelSignal.Reason.CANCELLED) {
      operations.finish(operationId, OperationState.CANCELLED, OperationStore.CANCELLED_MESSAGE);
      LOG.info("operation {}: cancelled", operationId);
      notices.ended(operationId);
    } else {
      // Shutting down: left RUNNING without a coordinator, resumed by the next start.
      LOG.info("operation {}: stopped for shutdown, to be resumed", operationId);
    }
  }

  /** Ends a run whose source or target could not be reached: FAILED, resumable once back. */
  void unreachable(String operationId, Exception e) throws SQLException {
    LOG.warn("operation {} failed: {}", operationId, e.getMessage());
    operations.finish(operationId, OperationState.FAILED, e.getMessage());
    notices.ended(operationId);
  }

  /** Runs {@code run}, ending the operation as above when it throws. */
  void guard(OperationSummary operation, Run run) throws SQLException {
    try {
      run.run();
    } catch (SQLException e) {
      if (!DatabaseRetry.isTransient(e)) {
        failForGood(operation, "the database refused: " + e.getMessage(), e);
        return;
      }
      deferOrGiveUp(operation, "a database error", String.valueOf(e.getMessage()), e);
      throw e;
    } catch (RuntimeException e) {
      failForGood(operation, "internal error: " + Records.describe(e), e);
    } catch (Error e) {
      // The JVM's own (out of memory, say): the operation stays resumable, as after a crash, but
      // a service resuming it after each lease would meet the same error for ever.
      deferOrGiveUp(operation, "an error of the JVM", e.toString(), null);
      throw e;
    }
  }

  /**
   * Holds the next run back, longer each time, or ends the operation FAILED after {@link
   * #MAX_ATTEMPTS} runs stopped so.
   *
   * @param kind what stopped the run, for people ("a database error")
   * @param cause the database's exception (the error of recording this is added to it when the
   *     database is still away); null for an Error
   */
  private void deferOrGiveUp(
      OperationSummary operation, String kind, String detail, @Nullable SQLException cause) {
    try {
      int before = retries.attempts(operation.id());
      if (before + 1 >= MAX_ATTEMPTS) {
        failForGood(
            operation,
            "gave up after "
                + MAX_ATTEMPTS
                + " runs stopped by errors; the last, "
                + kind
                + ": "
                + detail,
            cause);
        return;
      }
      long delay = Math.min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS << Math.min(before, 10));
      retries.defer(
          operation.id(),
          "stopped by "
              + kind
              + ", run again in "
              + delay
              + " s (run "
              + (before + 1)
              + " of "
              + MAX_ATTEMPTS
              + "): "
              + detail,
          delay);
    } catch (SQLException still) {
      if (cause != null) {
        cause.addSuppressed(still); // the database is still away; the next scan tries again
      }
    }
  }

  /** Ends the operation FAILED for good, its reason recorded; {@code cause} may be null. */
  void failForGood(OperationSummary operation, String reason, @Nullable Exception cause)
      throws SQLException {
    LOG.error("operation {} failed: {}", operation.id(), reason, cause);
    OperationSummary now = operations.find(operation.id()).orElse(operation);
    Phase phase = now.phase() == null ? Phase.PROVISIONING : now.phase();
    records.record(operation.id(), phase, FailureReason.INTERNAL_ERROR, "", 0, "", reason);
    operations.finish(operation.id(), OperationState.FAILED, reason);
    notices.ended(operation.id());
  }
}
