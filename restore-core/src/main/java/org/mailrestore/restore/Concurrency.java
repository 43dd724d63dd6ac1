package org.mailrestore.restore;

/**
 * How much a restore does at once, on this instance. Every bound is explicit: memory and
 * connections follow from them, not from the size of the backup.
 *
 * @param accounts accounts restored at once
 * @param clustersPerAccount clusters of one account in flight at once (a huge account also uses the
 *     machine)
 * @param blobTransfers blob copies in flight at once, across all accounts
 */
public record Concurrency(int accounts, int clustersPerAccount, int blobTransfers) {

  public Concurrency {
    if (accounts < 1 || clustersPerAccount < 1 || blobTransfers < 1) {
      throw new IllegalArgumentException("concurrency bounds must be at least 1");
    }
  }

  /** Defaults for this machine: two accounts per core, two clusters each, 32 blob copies. */
  public static Concurrency forMachine() {
    int cores = Runtime.getRuntime().availableProcessors();
    return new Concurrency(Math.max(2, 2 * cores), 2, 32);
  }

  /**
   * The database connections a restore at these bounds can use at once: one per cluster in flight,
   * plus two for bookkeeping (operations, claims, failures), plus the one the heartbeat keeps.
   */
  public int databaseConnections() {
    return accounts * clustersPerAccount + 3;
  }
}
