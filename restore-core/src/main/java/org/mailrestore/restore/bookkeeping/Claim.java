package org.mailrestore.restore.bookkeeping;

import java.security.SecureRandom;

/**
 * Who holds an account: an instance, and which of its claims (decision 0053). The database checks
 * both, so a claim an instance let go can neither release nor commit under a later claim of the
 * same instance on the same account.
 *
 * @param owner the instance's id ({@code lease_owner})
 * @param number this claim among all of the instance's ({@code lease_claim}), drawn at random so
 *     that an instance started again under the same id never meets its old numbers
 */
public record Claim(String owner, long number) {

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A new claim of {@code owner}'s. */
  public static Claim next(String owner) {
    return new Claim(owner, RANDOM.nextLong());
  }
}
