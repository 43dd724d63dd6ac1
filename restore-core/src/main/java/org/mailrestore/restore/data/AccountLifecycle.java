package org.mailrestore.restore.data;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.bookkeeping.AccountStore.Counters;
import org.mailrestore.restore.bookkeeping.FailureRow;
import org.mailrestore.restore.run.HeldLeases;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.TargetFailure;
import org.mailrestore.restore.run.Workers;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.SourceChangedException;
import org.mailrestore.source.SourceProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Phase 2 of one account this instance has claimed, from claim to end: the folder pass, then the
 * cluster stream; the account's final state; letting it go when stopped; giving it up when another
 * instance took it over; failing it alone when its source cannot be read.
 */
final class AccountLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(AccountLifecycle.class);

  private final OperationRun run;
  private final Records records;
  private final Workers workers;
  private final AccountProgress account;
  private final String sourceId;
  private final HeldLeases.Held lease;

  AccountLifecycle(
      OperationRun run,
      Records records,
      Workers workers,
      AccountProgress account,
      HeldLeases.Held lease) {
    this.lease = lease;
    this.run = run;
    this.records = records;
    this.workers = workers;
    this.account = account;
    this.sourceId = account.sourceAccountId();
  }

  /**
   * Restores the account; returns its final state, or empty when stopped before the end or when the
   * account's lease was lost to another instance.
   */
  Optional<AccountState> restore() throws SQLException {
    try (var logContext = MDC.putCloseable("account", account.accountName())) {
      return restoreClaimed();
    } catch (LeaseLostException e) {
      // Also from the failure paths' own finish: the account is the other instance's now.
      return leave(e);
    }
  }

  private Optional<AccountState> restoreClaimed() throws SQLException {
    records.metrics().accountStarted();
    try {
      AccountState state =
          account.state() == AccountState.SKIPPED ? countSkipped() : restoreItems();
      if (state == null) {
        // Stopped (cancel or shutdown): clusters in flight finished; another run continues.
        records.leases().released(lease);
        records
            .db()
            .run(
                "releasing an account",
                () -> records.books().accounts().release(run.id(), sourceId, lease.claim()));
        return Optional.empty();
      }
      finish(state, null);
      return Optional.of(state);
    } catch (IOException e) {
      // A source removed or replaced under the account says so, rather than "unreadable".
      FailureReason reason = FailureReason.ACCOUNT_UNREADABLE;
      String detail = "cannot read the account's items: " + e.getMessage();
      if (e instanceof SourceChangedException) {
        reason = FailureReason.SOURCE_CHANGED;
        detail = e.getMessage();
      } else {
        try {
          run.confirmSource();
        } catch (SourceChangedException changed) {
          reason = FailureReason.SOURCE_CHANGED;
          detail = changed.getMessage();
        }
      }
      records.record(run.id(), Phase.DATA, reason, sourceId, 0, "", detail);
      finish(AccountState.FAILED, detail);
      return Optional.of(AccountState.FAILED);
    } catch (TargetFailure e) {
      String detail = "the target failed: " + e.getMessage();
      records.record(run.id(), Phase.DATA, FailureReason.TARGET_REFUSED, sourceId, 0, "", detail);
      finish(AccountState.FAILED, detail);
      return Optional.of(AccountState.FAILED);
    } catch (LeaseLostException e) {
      return leave(e);
    } catch (RuntimeException e) {
      // No retry cures a bug or a value out of range: this account fails, the others go on.
      String detail = "internal error: " + Records.describe(e);
      LOG.error("account {} failed: {}", account.accountName(), detail, e);
      records.record(run.id(), Phase.DATA, FailureReason.INTERNAL_ERROR, sourceId, 0, "", detail);
      finish(AccountState.FAILED, detail);
      return Optional.of(AccountState.FAILED);
    } finally {
      records.metrics().accountFinished();
    }
  }

  /**
   * Leaves an account whose lease ran out here. When nobody took it over yet (this process was
   * paused, or cut off, and no other instance came), the database still names this instance, and
   * its heartbeat would keep renewing a lease no worker uses: it is released, so any instance (this
   * one too, with a new claim) takes it up again.
   */
  private Optional<AccountState> leave(LeaseLostException e) throws SQLException {
    LOG.warn("{}; leaving account {} to its new owner", e.getMessage(), account.accountName());
    // First, so that a cluster of this claim still in flight cannot commit once the account is
    // claimed again, by this instance too (decision 0049).
    records.leases().released(lease);
    records
        .db()
        .run(
            "releasing a lapsed lease",
            () -> records.books().accounts().release(run.id(), sourceId, lease.claim()));
    return Optional.empty();
  }

  private void finish(AccountState state, @Nullable String error) throws SQLException {
    records
        .db()
        .run(
            "finishing an account",
            () ->
                records
                    .books()
                    .accounts()
                    .finishHeld(run.id(), sourceId, lease.claim(), lease, state, error));
    records.metrics().accountDone(state);
  }

  /** Restores the account's items; returns null when stopped before the end. */
  private @Nullable AccountState restoreItems() throws IOException, SQLException {
    WriteContext context =
        new WriteContext(
            new BoundedContent(run.source().blobs(), workers, records.metrics()),
            workers.io(),
            lease);
    try (MailboxWriter writer =
        TargetFailure.call(() -> run.target().mailbox(account.target(), context))) {
      ClusterCommit commit = new ClusterCommit(run, records, account, writer, lease);
      FolderPass.FolderMap folders = new FolderPass(run, records, account, writer, commit).run();
      boolean done =
          new ClusterStream(run, records, workers, account, writer, commit, folders).run();
      recordSourceProblems();
      if (!done) {
        return null;
      }
      TargetFailure.run(writer::finish);
    }
    // Read to its end from the source the operation started with, or the account failed.
    run.confirmSource();
    long errors =
        records
            .db()
            .call(
                "counting failures",
                () -> records.books().failures().errorCount(run.id(), sourceId));
    return errors > 0 ? AccountState.PARTIAL : AccountState.RESTORED;
  }

  /**
   * Records what the source could not present as items (files of a tree it could not read, a
   * truncated archive) and what it left out on purpose; known once the items have been read.
   * Recording again on a resume is harmless.
   */
  private void recordSourceProblems() throws SQLException {
    List<FailureRow> rows = new ArrayList<>();
    for (SourceProblem p : run.source().problems(sourceId)) {
      rows.add(
          records.failure(
              Phase.DATA,
              p.notCarried() ? FailureReason.NOT_CARRIED : FailureReason.SOURCE_UNREADABLE,
              sourceId,
              0,
              p.location(),
              p.detail()));
    }
    if (!rows.isEmpty()) {
      records.record(run.id(), rows);
    }
  }

  /** Policy skip: counts what would have been restored. */
  private AccountState countSkipped() throws IOException, SQLException {
    long count = 0;
    try (ItemStream stream = run.source().items(sourceId, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        if (!(stream.next() instanceof ItemEntry.Decoded d)) {
          continue;
        }
        run.source().doneWithItems(sourceId, List.of(d.item())); // counted, never opened
        if (run.pointInTime().select(d.item()).isPresent()
            && SystemFolder.byId(d.item().id()) == null) {
          count++;
        }
      }
    } finally {
      run.source().doneWith(sourceId);
    }
    records
        .books()
        .accounts()
        .addCounters(run.id(), sourceId, lease.claim(), new Counters(0, count, 0, 0, 0));
    records.metrics().items("skipped", null, count);
    return AccountState.SKIPPED;
  }
}
