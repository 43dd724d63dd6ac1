package org.mailrestore.restore.run;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.restore.bookkeeping.Claim;
import org.mailrestore.restore.bookkeeping.HeldAccount;

/** The local side of a lease: what a paused or cut-off instance finds when it goes on. */
class HeldLeasesTest {

  private static final Claim CLAIM = new Claim("here", 1);

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @Test
  void aFreshClaimMayWriteAndOnePastItsLeaseMayNot() {
    HeldLeases leases = new HeldLeases(30);
    HeldLeases.Held fresh = leases.claimed("op", "a", System.nanoTime(), CLAIM);
    assertThatCode(fresh::check).doesNotThrowAnyException();
    // Claimed 25 s ago and never renewed (paused, or no heartbeat reached the database): the
    // deadline, a third of the lease before the database's, has passed.
    HeldLeases.Held stale = leases.claimed("op", "b", System.nanoTime() - 25 * SECOND, CLAIM);
    assertThatThrownBy(stale::check)
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("account b of operation op");
  }

  @Test
  void aHeartbeatExtendsWhatTheDatabaseStillGivesAndDropsTheRest() {
    HeldLeases leases = new HeldLeases(30);
    long longAgo = System.nanoTime() - 25 * SECOND;
    HeldLeases.Held kept = leases.claimed("op", "kept", longAgo, CLAIM);
    HeldLeases.Held taken = leases.claimed("op", "taken", System.nanoTime(), CLAIM);
    leases.renewed(System.nanoTime(), Set.of(new HeldAccount("op", "kept")));
    assertThatCode(kept::check).doesNotThrowAnyException();
    assertThatThrownBy(taken::check).isInstanceOf(LeaseLostException.class);
  }

  @Test
  void aNewClaimOfTheSameAccountIsNotTheOldOne() {
    HeldLeases leases = new HeldLeases(30);
    HeldLeases.Held first = leases.claimed("op", "a", System.nanoTime() - 25 * SECOND, CLAIM);
    HeldLeases.Held again = leases.claimed("op", "a", System.nanoTime(), CLAIM);
    leases.renewed(System.nanoTime(), Set.of(new HeldAccount("op", "a")));
    // A worker of the first claim, let go after a pause, still may not write.
    assertThatCode(again::check).doesNotThrowAnyException();
    assertThatThrownBy(first::check).isInstanceOf(LeaseLostException.class);
    leases.released(first); // the old worker's release leaves the new claim alone
    leases.renewed(System.nanoTime(), Set.of(new HeldAccount("op", "a")));
    assertThatCode(again::check).doesNotThrowAnyException();
  }

  @Test
  void aClaimLetGoStaysLostWhateverTheDatabaseSaysLater() {
    HeldLeases leases = new HeldLeases(30);
    HeldLeases.Held left = leases.claimed("op", "a", System.nanoTime(), CLAIM);
    leases.released(left); // its worker left the account, before its deadline
    assertThatThrownBy(left::check).isInstanceOf(LeaseLostException.class);
    HeldLeases.Held again = leases.claimed("op", "a", System.nanoTime(), CLAIM);
    leases.renewed(System.nanoTime(), Set.of(new HeldAccount("op", "a")));
    assertThatThrownBy(left::check).isInstanceOf(LeaseLostException.class);
    assertThatCode(again::check).doesNotThrowAnyException();
  }
}
