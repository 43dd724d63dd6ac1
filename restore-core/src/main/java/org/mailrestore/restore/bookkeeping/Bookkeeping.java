package org.mailrestore.restore.bookkeeping;

import javax.sql.DataSource;

/** The engine's tables in one place: what the engine, the service and the CLI read and write. */
public final class Bookkeeping {

  private final DataSource dataSource;
  private final OperationStore operations;
  private final AccountStore accounts;
  private final FailureStore failures;
  private final IdMap idMap;
  private final Checkpoints checkpoints;
  private final PendingMounts mounts;
  private final ThrottleStore throttles;
  private final ClaimStore claims;
  private final OperationRetries retries;
  private final LeaseStore leases;

  public Bookkeeping(DataSource dataSource) {
    this.dataSource = dataSource;
    this.operations = new OperationStore(dataSource);
    this.accounts = new AccountStore(dataSource);
    this.failures = new FailureStore(dataSource);
    this.idMap = new IdMap(dataSource);
    this.checkpoints = new Checkpoints(dataSource);
    this.mounts = new PendingMounts(dataSource);
    this.throttles = new ThrottleStore(dataSource);
    this.claims = new ClaimStore(dataSource);
    this.retries = new OperationRetries(dataSource);
    this.leases = new LeaseStore(dataSource);
  }

  public DataSource dataSource() {
    return dataSource;
  }

  public OperationStore operations() {
    return operations;
  }

  public AccountStore accounts() {
    return accounts;
  }

  public FailureStore failures() {
    return failures;
  }

  public IdMap idMap() {
    return idMap;
  }

  public Checkpoints checkpoints() {
    return checkpoints;
  }

  public PendingMounts mounts() {
    return mounts;
  }

  public ThrottleStore throttles() {
    return throttles;
  }

  public ClaimStore claims() {
    return claims;
  }

  public OperationRetries retries() {
    return retries;
  }

  public LeaseStore leases() {
    return leases;
  }
}
