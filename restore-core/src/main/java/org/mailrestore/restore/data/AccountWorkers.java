package org.mailrestore.restore.data;

import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.bookkeeping.Claim;
import org.mailrestore.restore.run.DatabaseRetry;
import org.mailrestore.restore.run.HeldLeases;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.Workers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 of an operation on this instance: {@code concurrency.accounts()} workers, each claiming
 * the next free account, restoring it, and claiming again. Accounts other instances hold are left
 * to them; when a holder dies its lease expires and a worker here takes the account over from its
 * last committed cluster. Ends when every account is finished, by whichever instance, or when
 * stopped.
 */
public final class AccountWorkers {

  private static final Logger LOG = LoggerFactory.getLogger(AccountWorkers.class);
  private static final long LEASE_POLL_MILLIS = 250;

  private final OperationRun run;
  private final Records records;
  private final Workers workers;

  public AccountWorkers(OperationRun run, Records records, Workers workers) {
    this.run = run;
    this.records = records;
    this.workers = workers;
  }

  public void run() throws SQLException {
    // No worker of this instance runs this operation now, so any lease under this instance's id
    // is a leftover.
    records
        .db()
        .run(
            "releasing leftover leases",
            () -> records.books().accounts().releaseAll(run.id(), records.instanceId()));
    while (!run.cancel().raised()) {
      // Every worker ends before this returns or throws: none may outlive the phase.
      workers.runAll(workers.concurrency().accounts(), this::claimAndRestore, "restoring accounts");
      long heldElsewhere =
          records
              .db()
              .call("listing accounts", () -> records.books().accounts().list(run.id()))
              .stream()
              .filter(AccountWorkers::needsData)
              .count();
      if (heldElsewhere == 0 || run.cancel().raised()) {
        return;
      }
      LOG.info(
          "operation {}: {} accounts are held by other instances; waiting for them or their"
              + " leases",
          run.id(),
          heldElsewhere);
      DatabaseRetry.sleep(LEASE_POLL_MILLIS, "accounts held elsewhere");
    }
  }

  /** One worker: claims accounts one after another until none is free or the restore stops. */
  private Void claimAndRestore() throws SQLException {
    while (!run.cancel().raised()) {
      long claimedAt = System.nanoTime(); // before the claim: its deadline errs early
      Claim claim = Claim.next(records.instanceId());
      Optional<AccountProgress> account =
          records
              .db()
              .call(
                  "claiming an account",
                  () ->
                      records
                          .books()
                          .accounts()
                          .claimNext(run.id(), claim, records.leaseSeconds()));
      if (account.isEmpty()) {
        return null;
      }
      HeldLeases.Held lease =
          records.leases().claimed(run.id(), account.get().sourceAccountId(), claimedAt, claim);
      try {
        new AccountLifecycle(run, records, workers, account.get(), lease).restore();
      } finally {
        records.leases().released(lease);
      }
    }
    return null;
  }

  /** Accounts provisioned but not finished (a resumed operation skips the finished ones). */
  public static boolean needsData(AccountProgress a) {
    return a.finishedAt() == null
        && (a.state() == AccountState.PROVISIONED
            || a.state() == AccountState.RESTORING
            || a.state() == AccountState.SKIPPED);
  }
}
