package org.mailrestore.restore.bookkeeping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.run.HeldLeases;
import org.mailrestore.sql.Sql;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * A cluster in flight under a claim that was let go, committing after the same instance claimed the
 * account again: the database names the same owner, so only the claim, checked inside the commit,
 * refuses it (decision 0049). On the real MariaDB.
 */
class LeaseFenceTest {

  private static final String OWNER = "here";
  private static final String ACCOUNT = "src-alice";

  private TestDatabase database;
  private Bookkeeping books;
  private final HeldLeases leases = new HeldLeases(30);
  private final String operationId = UUID.randomUUID().toString();

  @BeforeEach
  void account() throws Exception {
    database = TestMariaDb.createDatabase();
    books = ProvisionedOperation.create(database.dataSource(), operationId, "fence", "alice");
  }

  @AfterEach
  void drop() {
    database.close();
  }

  @Test
  void aClusterOfAClaimLetGoDoesNotCommitUnderTheNextClaimOfTheSameInstance() throws Exception {
    HeldLeases.Held first = claim();
    ClusterRecord late = record(first, 1);
    // The worker of the first claim leaves the account (its lease lapsed while it waited) and a
    // worker of the same instance claims it again; the late cluster was already past its checks.
    leases.released(first);
    books.accounts().release(operationId, ACCOUNT, first.claim());
    HeldLeases.Held second = claim();

    assertThatThrownBy(late::commit).isInstanceOf(LeaseLostException.class);
    assertThat(late.isCommitted()).as("the late cluster rolled back").isFalse();
    assertThat(committedClusters()).isZero();

    ClusterRecord current = record(second, 1);
    current.commit();
    assertThat(current.isCommitted()).isTrue();
    assertThat(committedClusters()).isEqualTo(1);
  }

  @Test
  void anAccountIsFinishedOnlyUnderTheClaimThatHoldsIt() throws Exception {
    HeldLeases.Held first = claim();
    leases.released(first);
    books.accounts().release(operationId, ACCOUNT, first.claim());
    HeldLeases.Held second = claim();

    assertThatThrownBy(() ->
            books
                .accounts()
                .finishHeld(
                    operationId, ACCOUNT, first.claim(), first, AccountState.RESTORED, null))
        .isInstanceOf(LeaseLostException.class);
    assertThat(books.accounts().list(operationId).getFirst().finishedAt())
        .as("the refused finish rolled back")
        .isNull();

    books
        .accounts()
        .finishHeld(operationId, ACCOUNT, second.claim(), second, AccountState.RESTORED, null);
    assertThat(books.accounts().list(operationId).getFirst().finishedAt()).isNotNull();
  }

  @Test
  void theDatabaseSaysWhenAnotherInstanceTookTheAccountOver() throws Exception {
    HeldLeases.Held here = claim();
    assertThat(books.accounts().isHeldBy(operationId, ACCOUNT, here.claim())).isTrue();
    // This instance's lease ran out (paused) and another instance claimed the account: what a
    // write refused by the other's rows asks before it gives the account up (decision 0052).
    expire();
    Claim there = Claim.next("there");
    assertThat(books.accounts().claimNext(operationId, there, 30)).isPresent();
    assertThat(books.accounts().isHeldBy(operationId, ACCOUNT, here.claim())).isFalse();
    assertThat(books.accounts().isHeldBy(operationId, ACCOUNT, there)).isTrue();
    books.accounts().release(operationId, ACCOUNT, there);
    assertThat(books.accounts().isHeldBy(operationId, ACCOUNT, there)).isFalse();
  }

  /**
   * The same instance claims the account again after its first claim lapsed (paused), while the
   * first claim's worker has not yet noticed: that worker's release and its late cluster are the
   * first claim's, and the database refuses both, whatever this instance remembers (decision 0053).
   */
  @Test
  void aLapsedClaimNeitherReleasesNorCommitsUnderTheSameInstancesNextClaim() throws Exception {
    HeldLeases.Held first = claim();
    ClusterRecord late = record(first, 1);
    expire();
    HeldLeases.Held second = claim();

    books.accounts().release(operationId, ACCOUNT, first.claim());
    assertThat(books.accounts().isHeldBy(operationId, ACCOUNT, second.claim()))
        .as("the first claim's release left the second claim in place")
        .isTrue();
    assertThatThrownBy(late::commit).isInstanceOf(LeaseLostException.class);
    assertThat(committedClusters()).isZero();
    record(second, 1).commit();
    assertThat(committedClusters()).isEqualTo(1);
  }

  private void expire() throws Exception {
    Sql.update(
        database.dataSource(),
        "UPDATE restore_account SET lease_until = NOW(3) - INTERVAL 1 SECOND"
            + " WHERE operation_id = ?",
        operationId);
  }

  private HeldLeases.Held claim() throws Exception {
    long at = System.nanoTime();
    Claim claim = Claim.next(OWNER);
    AccountProgress a = books.accounts().claimNext(operationId, claim, 30).orElseThrow();
    assertThat(a.sourceAccountId()).isEqualTo(ACCOUNT);
    return leases.claimed(operationId, ACCOUNT, at, claim);
  }

  private ClusterRecord record(HeldLeases.Held lease, int seq) {
    ClusterRecord r =
        new ClusterRecord(
            database.dataSource(),
            new ClusterRecord.Header(
                operationId,
                ACCOUNT,
                lease.claim(),
                lease,
                new IdSpace(1, 1),
                seq,
                0,
                0,
                List.of()),
            RestoreMetrics.inMemory());
    r.mapped(100 + seq, 1000 + seq);
    return r;
  }

  private long committedClusters() throws Exception {
    return Sql.queryOne(
            database.dataSource(),
            "SELECT COUNT(*) FROM restore_cluster WHERE operation_id = ?",
            rs -> rs.getLong(1),
            operationId)
        .orElseThrow();
  }
}
