package org.mailrestore.backup.generate;

import java.util.SplittableRandom;

/**
 * Message sizes as real mailboxes have them: a log-normal body (median 1.7 KB, p90 6.3 KB, p99 ~20
 * KB, as measured on the Enron corpus) and a rare tail of multi-megabyte messages with attachments.
 */
final class SizeModel {

  static final double MEDIAN = 1700;
  // sigma = ln(6300 / 1700) / z(0.90) = 1.3099 / 1.2816
  static final double SIGMA = 1.022;
  static final int MIN_SIZE = 420;
  static final int MAX_BODY_SIZE = 400_000;
  static final int MIN_LARGE = 1 << 20;
  static final int MAX_LARGE = 8 << 20;

  private final double largeRate;

  SizeModel(double largeRate) {
    this.largeRate = largeRate;
  }

  /** The size of the next message in bytes. */
  int nextSize(SplittableRandom random) {
    if (largeRate > 0 && random.nextDouble() < largeRate) {
      return MIN_LARGE + random.nextInt(MAX_LARGE - MIN_LARGE);
    }
    double size = MEDIAN * Math.exp(SIGMA * gaussian(random));
    return (int) Math.max(MIN_SIZE, Math.min(MAX_BODY_SIZE, size));
  }

  /**
   * A standard normal deviate (Box-Muller); SplittableRandom has no nextGaussian before Java 17.
   */
  static double gaussian(SplittableRandom random) {
    double u1 = random.nextDouble();
    double u2 = random.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  }
}
