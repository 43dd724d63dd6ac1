package org.mailrestore.restore.run;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.LeaseLostException;
import org.mailrestore.restore.bookkeeping.Claim;
import org.mailrestore.restore.bookkeeping.HeldAccount;

/**
 * The accounts this instance holds, each with a deadline on this machine's monotonic clock
 * (decision 0043). The database's lease says who may write an account; this says, without asking
 * the database, whether this instance may still be the one: a claim or a heartbeat that renewed the
 * lease at {@code t} lets it write until {@code t + lease - margin}, earlier than any other
 * instance may take the account over ({@code t + lease} by the database's clock). A process paused
 * past that, or cut off from the database so no heartbeat renews it, finds its deadline passed when
 * it goes on, and stops before it writes again.
 */
public final class HeldLeases {

  private final long leaseNanos;
  private final long marginNanos;
  private final Map<HeldAccount, Held> held = new ConcurrentHashMap<>();

  public HeldLeases(int leaseSeconds) {
    this.leaseNanos = leaseSeconds * 1_000_000_000L;
    // Room for a heartbeat's round trip and for the two clocks' drift over one lease.
    this.marginNanos = leaseNanos / 3;
  }

  /**
   * An account just claimed.
   *
   * @param claimedAt {@link System#nanoTime()} read before the claim was sent
   * @param claim the claim, as the database holds it
   */
  public Held claimed(String operationId, String sourceAccountId, long claimedAt, Claim claim) {
    HeldAccount key = new HeldAccount(operationId, sourceAccountId);
    Held h = new Held(key, claim, claimedAt + leaseNanos - marginNanos);
    held.put(key, h);
    return h;
  }

  /**
   * The account is no longer this instance's under this claim (finished, released, stopped, left):
   * the claim is lost for good, so a write of it still in flight cannot commit even after this
   * instance claims the account again (decision 0049). Called before the database lets it go.
   */
  public void released(Held h) {
    h.lose();
    held.remove(h.key, h);
  }

  /**
   * A heartbeat went through.
   *
   * @param renewedAt {@link System#nanoTime()} read before the renewal was sent
   * @param stillHeld what the database says this instance holds after it: any other held here was
   *     taken over meanwhile
   */
  public void renewed(long renewedAt, Set<HeldAccount> stillHeld) {
    for (Held h : held.values()) {
      if (stillHeld.contains(h.key)) {
        h.extend(renewedAt + leaseNanos - marginNanos);
      } else {
        h.lose();
      }
    }
  }

  /**
   * One claim of one account: a new claim of the same account is another {@code Held}, so a worker
   * of an earlier claim (paused, then let go) cannot write under the new one.
   */
  public static final class Held implements Lease {
    private final HeldAccount key;
    private final Claim claim;
    private volatile long deadline;
    private volatile boolean lost;

    private Held(HeldAccount key, Claim claim, long deadline) {
      this.key = key;
      this.claim = claim;
      this.deadline = deadline;
    }

    /** This claim as the database holds it. */
    public Claim claim() {
      return claim;
    }

    private void extend(long until) {
      if (until - deadline > 0) {
        deadline = until;
      }
    }

    private void lose() {
      lost = true;
    }

    @Override
    public void check() {
      if (lost || System.nanoTime() - deadline > 0) {
        throw new LeaseLostException(
            "account "
                + key.sourceAccountId()
                + " of operation "
                + key.operationId()
                + ": this instance's lease on it ran out (paused, or cut off from the database);"
                + " another instance takes it over");
      }
    }
  }
}
