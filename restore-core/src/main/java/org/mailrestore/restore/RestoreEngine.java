package org.mailrestore.restore;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import org.mailrestore.backup.BackupFormatException;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.ProvisioningStore;
import org.mailrestore.mailstore.SharesStore;
import org.mailrestore.mailstore.VolumeStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs restore operations: persists each request as an operation first, then runs its three phases
 * in order. Everything it does is recorded in the database as it goes, so an interrupted operation
 * can be run again and continues where it stopped.
 */
public final class RestoreEngine {

  /** How long an instance holds an account without committing before others may take it over. */
  public static final int DEFAULT_LEASE_SECONDS = 60;

  private static final long LEASE_POLL_MILLIS = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(RestoreEngine.class);

  private final OperationStore operations;
  private final RestoreTarget target;
  private final BackupOpener opener;
  private final RestoreMetrics metrics;
  private final String instanceId;
  private final int leaseSeconds;

  public RestoreEngine(
      OperationStore operations,
      RestoreTarget target,
      BackupOpener opener,
      RestoreMetrics metrics,
      String instanceId,
      int leaseSeconds) {
    this.operations = operations;
    this.target = target;
    this.opener = opener;
    this.metrics = metrics;
    this.instanceId = instanceId;
    this.leaseSeconds = leaseSeconds;
  }

  public OperationStore operations() {
    return operations;
  }

  /**
   * Records a new operation, queued, and returns its id. With an idempotency key already used, it
   * returns the operation created then instead.
   */
  public String submit(RestoreRequest request, String idempotencyKey) throws SQLException {
    if (idempotencyKey != null) {
      Optional<String> existing = operations.findByIdempotencyKey(idempotencyKey);
      if (existing.isPresent()) {
        return existing.get();
      }
    }
    String id = UUID.randomUUID().toString();
    operations.create(id, request, describe(request.source()), idempotencyKey);
    return id;
  }

  static String describe(BackupSource source) {
    return switch (source) {
      case BackupSource.Local(String path) -> path;
      case BackupSource.S3(String profile, String bucket, String prefix) ->
          "s3://" + bucket + "/" + (prefix == null ? "" : prefix) + " (profile " + profile + ")";
    };
  }

  /**
   * Runs (or resumes) an operation to its end and returns how it ended.
   *
   * @throws NoSuchElementException when there is no such operation
   * @throws SQLException when the mailstore database fails; the operation stays resumable
   */
  public OperationSummary run(String operationId) throws SQLException {
    OperationSummary operation =
        operations
            .find(operationId)
            .orElseThrow(() -> new NoSuchElementException("no operation " + operationId));
    RestoreRequest request = operation.request();
    operations.markRunning(operationId);
    LOG.info("operation {}: restoring from {}", operationId, operation.source());
    try (BackupReader backup = opener.open(request.source())) {
      RestoreContext ctx =
          new RestoreContext(
              operationId,
              request,
              backup,
              target,
              operations,
              new ProvisioningStore(target.dataSource()),
              new MailboxStore(target.dataSource()),
              new VolumeStore(target.dataSource()),
              new SharesStore(target.dataSource()),
              metrics,
              instanceId,
              leaseSeconds);
      runPhase(ctx, Phase.PROVISIONING, () -> new Provisioner(ctx).run());
      if (!request.selection().provisioningOnly()) {
        runPhase(ctx, Phase.DATA, () -> restoreAccounts(ctx));
        runPhase(ctx, Phase.SHARES, () -> new SharesRestorer(ctx).run());
      }
      OperationState state = finalState(operationId);
      operations.finish(operationId, state, null);
      LOG.info("operation {}: {}", operationId, state);
    } catch (BackupFormatException | IOException e) {
      LOG.warn("operation {} failed: {}", operationId, e.getMessage());
      operations.finish(operationId, OperationState.FAILED, e.getMessage());
    }
    return operations.find(operationId).orElseThrow();
  }

  @FunctionalInterface
  private interface PhaseWork {
    void run() throws SQLException;
  }

  private void runPhase(RestoreContext ctx, Phase phase, PhaseWork work) throws SQLException {
    long started = System.nanoTime();
    operations.enterPhase(ctx.operationId(), phase);
    work.run();
    long millis = (System.nanoTime() - started) / 1_000_000;
    operations.addPhaseTime(ctx.operationId(), phase, millis);
    metrics.phase(phase, millis);
  }

  /**
   * Restores every account that needs it. An account another instance holds is left to it; when its
   * holder dies, its lease expires and this instance takes the account over from its last committed
   * cluster. The phase ends when every account is finished, by whichever instance.
   */
  private void restoreAccounts(RestoreContext ctx) throws SQLException {
    while (true) {
      List<AccountProgress> pending =
          operations.accounts(ctx.operationId()).stream().filter(RestoreEngine::needsData).toList();
      if (pending.isEmpty()) {
        return;
      }
      boolean progressed = false;
      for (AccountProgress account : pending) {
        progressed |= new AccountRestorer(ctx, account).restore().isPresent();
      }
      if (!progressed) {
        LOG.info(
            "operation {}: {} accounts are held by other instances; waiting for them or their"
                + " leases",
            ctx.operationId(),
            pending.size());
        sleep(LEASE_POLL_MILLIS);
      }
    }
  }

  private static void sleep(long millis) throws SQLException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for accounts held elsewhere", e);
    }
  }

  /** Accounts provisioned but not finished (a resumed operation skips the finished ones). */
  static boolean needsData(AccountProgress a) {
    return a.finishedAt() == null
        && (a.state() == AccountState.PROVISIONED
            || a.state() == AccountState.RESTORING
            || a.state() == AccountState.SKIPPED);
  }

  private OperationState finalState(String operationId) throws SQLException {
    List<AccountProgress> accounts = operations.accounts(operationId);
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
}
