package org.mailrestore.destination;

/**
 * This instance's hold on the account a writer writes. A target whose writes the engine's
 * bookkeeping cannot fence (an IMAP server: no keys refuse a late append) checks it before each
 * write it sends, so an instance that was paused or cut off past its lease stops before it writes
 * what the instance that took the account over writes too (decision 0043).
 */
@FunctionalInterface
public interface Lease {

  /** A hold that never ends: one process alone, or a target whose commits fence themselves. */
  Lease HELD = () -> {};

  /**
   * Returns while the account is still this instance's to write.
   *
   * @throws LeaseLostException when it may no longer be
   */
  void check();
}
