package org.mailrestore.restore.bookkeeping;

import static org.mailrestore.sql.Sql.nullableInt;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.sql.Sql;

/**
 * The accounts of operations: where each goes in the target, its state and counters, and the lease
 * of the instance restoring it. Instances claim accounts one at a time ({@link #claimNext}); the
 * heartbeat renews their leases; an instance that dies loses its accounts after one lease.
 */
public final class AccountStore {

  private static final String COLUMNS =
      "source_account_id, account_name, state, target_key, target_id, source_ref,"
          + " fresh_mailbox, items_restored, items_skipped, items_failed, bytes_restored,"
          + " dedup_hits, lease_owner, started_at, finished_at, error";

  private final DataSource dataSource;

  public AccountStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Adds an account to the operation (a resumed operation keeps the row it has). */
  public void add(String operationId, String sourceAccountId, String accountName)
      throws SQLException {
    Sql.update(
        dataSource,
        "INSERT IGNORE INTO restore_account (operation_id, source_account_id, account_name, state)"
            + " VALUES (?, ?, ?, ?)",
        operationId,
        sourceAccountId,
        accountName,
        AccountState.PENDING.name());
  }

  /** Records where an account was provisioned to. */
  public void provisioned(
      String operationId,
      String sourceAccountId,
      ProvisionedAccount target,
      int sourceRef,
      AccountState state)
      throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_account SET account_name = ?, target_key = ?, target_id = ?,"
            + " source_ref = ?, fresh_mailbox = ?, state = ?"
            + " WHERE operation_id = ? AND source_account_id = ?",
        target.name(),
        target.key(),
        target.id(),
        sourceRef,
        target.fresh(),
        state.name(),
        operationId,
        sourceAccountId);
  }

  /** An account phase 2 may take: not finished, and held by nobody or by a lease run out. */
  private static final String CLAIMABLE =
      "finished_at IS NULL AND state IN ('PROVISIONED', 'RESTORING', 'SKIPPED')"
          + " AND (lease_owner IS NULL OR lease_until < NOW(3))";

  /** How many free accounts one read offers a claim. */
  private static final int CANDIDATES = 8;

  private static final String FREE_ACCOUNTS =
      "SELECT source_account_id FROM restore_account FORCE INDEX (i_account_claim_order)"
          + " WHERE operation_id = ? AND "
          + CLAIMABLE
          + " ORDER BY account_name LIMIT "
          + CANDIDATES;

  /**
   * Claims the next account of phase 2 for this instance and returns it; empty when every account
   * left is finished or held by a live instance. An account is claimable when nobody holds it or
   * the holder's lease expired (it died); the lease, renewed by the heartbeat, keeps the account
   * this instance's.
   *
   * <p>The free accounts are read without locks, then taken one by one by an update that checks
   * again that the account is free: of two claimers racing for one account, the second's update
   * waits for the first's (one statement) and finds it taken, and it tries the next. A locking read
   * ({@code FOR UPDATE SKIP LOCKED}) kept every row it passed locked until its commit, the accounts
   * other workers held among them, whose cluster commits then waited and now and then deadlocked
   * with the claim.
   */
  public Optional<AccountProgress> claimNext(String operationId, Claim claim, int leaseSeconds)
      throws SQLException {
    for (List<String> free = freeAccounts(operationId);
        !free.isEmpty();
        free = freeAccounts(operationId)) {
      for (String sourceAccountId : free) {
        int taken =
            Sql.update(
                dataSource,
                "UPDATE restore_account SET lease_owner = ?, lease_claim = ?,"
                    + " lease_until = NOW(3) + INTERVAL ? SECOND,"
                    + " started_at = COALESCE(started_at, NOW(3)),"
                    + " state = IF(state = 'PROVISIONED', 'RESTORING', state)"
                    + " WHERE operation_id = ? AND source_account_id = ? AND "
                    + CLAIMABLE,
                claim.owner(),
                claim.number(),
                leaseSeconds,
                operationId,
                sourceAccountId);
        if (taken == 1) {
          return Sql.queryOne(
              dataSource,
              "SELECT "
                  + COLUMNS
                  + " FROM restore_account WHERE operation_id = ? AND source_account_id = ?",
              AccountStore::account,
              operationId,
              sourceAccountId);
        }
      }
    }
    return Optional.empty();
  }

  /** The next free accounts of an operation, by name (V5's index), read without locking them. */
  private List<String> freeAccounts(String operationId) throws SQLException {
    return Sql.query(dataSource, FREE_ACCOUNTS, rs -> rs.getString(1), operationId);
  }

  /** Sets an account's final (or new) state before anyone holds it (phase 1). */
  public void finish(
      String operationId, String sourceAccountId, AccountState state, @Nullable String error)
      throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_account SET state = ?, error = ?, lease_owner = NULL, lease_claim = NULL,"
            + " lease_until = NULL, finished_at = IF(?, NOW(3), NULL) WHERE operation_id = ? AND source_account_id = ?",
        state.name(),
        error,
        state.isDone(),
        operationId,
        sourceAccountId);
  }

  /**
   * Sets an account's final (or new) state and releases it, if {@code claim} still holds it (as
   * {@code lease} says here too): checked with the account's row locked, as a cluster's commit
   * checks it.
   *
   * @throws LeaseLostException when another instance, or another claim of this one, took the
   *     account over meanwhile
   */
  public void finishHeld(
      String operationId,
      String sourceAccountId,
      Claim claim,
      Lease lease,
      AccountState state,
      @Nullable String error)
      throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE restore_account SET state = ?, error = ?, lease_owner = NULL,"
                      + " lease_claim = NULL, lease_until = NULL, finished_at = IF(?, NOW(3), NULL)"
                      + " WHERE operation_id = ? AND source_account_id = ? AND lease_owner = ?"
                      + " AND lease_claim = ?")) {
            Sql.bind(
                ps,
                state.name(),
                error,
                state.isDone(),
                operationId,
                sourceAccountId,
                claim.owner(),
                claim.number());
            if (ps.executeUpdate() == 0) {
              throw new LeaseLostException(
                  "account " + sourceAccountId + " was taken over before it was finished here");
            }
          }
          lease.check();
          return null;
        });
  }

  /** Whether {@code claim} holds the account now, by the database. */
  public boolean isHeldBy(String operationId, String sourceAccountId, Claim claim)
      throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT lease_owner = ? AND lease_claim = ? FROM restore_account"
                + " WHERE operation_id = ? AND source_account_id = ?",
            rs -> rs.getBoolean(1),
            claim.owner(),
            claim.number(),
            operationId,
            sourceAccountId)
        .orElse(false);
  }

  /**
   * Releases the accounts this instance holds in an operation: called before its workers start, so
   * that leases left by an earlier run under the same instance id (a crash) do not have to expire.
   */
  public void releaseAll(String operationId, String owner) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_account SET lease_owner = NULL, lease_claim = NULL, lease_until = NULL"
            + " WHERE operation_id = ? AND lease_owner = ?",
        operationId,
        owner);
  }

  /** Lets go of an account without finishing it (cancel, shutdown): another run takes it up. */
  public void release(String operationId, String sourceAccountId, Claim claim) throws SQLException {
    Sql.update(
        dataSource,
        "UPDATE restore_account SET lease_owner = NULL, lease_claim = NULL, lease_until = NULL"
            + " WHERE operation_id = ? AND source_account_id = ? AND lease_owner = ?"
            + " AND lease_claim = ?",
        operationId,
        sourceAccountId,
        claim.owner(),
        claim.number());
  }

  public List<AccountProgress> list(String operationId) throws SQLException {
    return Sql.query(
        dataSource,
        "SELECT " + COLUMNS + " FROM restore_account WHERE operation_id = ? ORDER BY account_name",
        AccountStore::account,
        operationId);
  }

  /** Adds to an account's counters outside any cluster, checking the claim. */
  public void addCounters(
      String operationId, String sourceAccountId, Claim claim, Counters counters)
      throws SQLException {
    Sql.inTransaction(
        dataSource,
        c -> {
          addCounters(c, operationId, sourceAccountId, claim, counters);
          return null;
        });
  }

  /**
   * Adds to an account's counters on a connection (in its transaction), checking the claim.
   *
   * @throws LeaseLostException when {@code claim} no longer holds the account
   */
  static void addCounters(
      Connection c, String operationId, String sourceAccountId, Claim claim, Counters n)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE restore_account SET items_restored = items_restored + ?,"
                + " items_skipped = items_skipped + ?, items_failed = items_failed + ?,"
                + " bytes_restored = bytes_restored + ?, dedup_hits = dedup_hits + ?"
                + " WHERE operation_id = ? AND source_account_id = ? AND lease_owner = ?"
                + " AND lease_claim = ?")) {
      ps.setLong(1, n.restored());
      ps.setLong(2, n.skipped());
      ps.setLong(3, n.failed());
      ps.setLong(4, n.bytes());
      ps.setLong(5, n.dedupHits());
      ps.setString(6, operationId);
      ps.setString(7, sourceAccountId);
      ps.setString(8, claim.owner());
      ps.setLong(9, claim.number());
      if (ps.executeUpdate() != 1) {
        throw new LeaseLostException(
            "account "
                + sourceAccountId
                + " of operation "
                + operationId
                + " is no longer held by this claim of "
                + claim.owner());
      }
    }
  }

  private static AccountProgress account(ResultSet rs) throws SQLException {
    return new AccountProgress(
        rs.getString(1),
        rs.getString(2),
        AccountState.valueOf(rs.getString(3)),
        nullableInt(rs, 4),
        rs.getString(5),
        nullableInt(rs, 6),
        rs.getBoolean(7),
        rs.getLong(8),
        rs.getLong(9),
        rs.getLong(10),
        rs.getLong(11),
        rs.getLong(12),
        rs.getString(13),
        OperationStore.instant(rs.getTimestamp(14)),
        OperationStore.instant(rs.getTimestamp(15)),
        rs.getString(16));
  }

  /** What a cluster (or a count outside clusters) adds to an account's counters. */
  public record Counters(long restored, long skipped, long failed, long bytes, long dedupHits) {
    public static final Counters NONE = new Counters(0, 0, 0, 0, 0);

    public Counters plus(Counters o) {
      return new Counters(
          restored + o.restored,
          skipped + o.skipped,
          failed + o.failed,
          bytes + o.bytes,
          dedupHits + o.dedupHits);
    }
  }
}
