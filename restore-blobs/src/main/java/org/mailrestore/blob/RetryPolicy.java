package org.mailrestore.blob;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How often and how patiently to retry: exponential backoff with full jitter (a random delay up to
 * the exponential bound), so retrying clients spread out instead of hammering in step.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofMillis(50), Duration.ofSeconds(10));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("at least one attempt");
    }
  }

  /** The delay before attempt {@code attempt} (2 for the first retry). */
  public Duration backoff(int attempt) {
    long bound =
        Math.min(
            maxBackoff.toMillis(),
            initialBackoff.toMillis() * (1L << Math.min(20, Math.max(0, attempt - 2))));
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(bound / 2, bound + 1));
  }

  /**
   * Failures worth retrying: I/O errors, not missing or damaged blobs, nor files that are missing
   * or refused (a {@link java.nio.file.FileSystemException} names a file that will not change).
   */
  public static boolean isTransient(Throwable e) {
    if (e instanceof BlobException b) {
      return b.reason() == BlobException.Reason.IO_ERROR;
    }
    if (e instanceof java.nio.file.FileSystemException
        || e instanceof java.io.FileNotFoundException) {
      return false;
    }
    return e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException;
  }

  static void sleep(Duration d) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting to retry");
    }
  }
}
