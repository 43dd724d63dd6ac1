package org.mailrestore.restore;

/** Where one account of an operation stands. */
public enum AccountState {
  PENDING,
  PROVISIONED,
  RESTORING,
  RESTORED,
  /** Restored except for the items listed as failures. */
  PARTIAL,
  FAILED,
  /** Left alone (it existed and the policy is {@code skip}). */
  SKIPPED;

  public boolean isDone() {
    return this == RESTORED || this == PARTIAL || this == FAILED || this == SKIPPED;
  }
}
