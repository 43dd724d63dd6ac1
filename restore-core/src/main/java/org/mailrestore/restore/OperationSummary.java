package org.mailrestore.restore;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An operation as it stands: state, phase, timings and counters summed over its accounts.
 *
 * @param request what was asked; null when the stored request cannot be read back (stored by an
 *     older version, or holding a value since refused): such an operation is failed, never run
 * @param message why the operation failed as a whole, why it waits, or null
 */
public record OperationSummary(
    String id,
    OperationState state,
    @Nullable Phase phase,
    String source,
    @Nullable RestoreRequest request,
    Instant createdAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    @Nullable Long provisioningMillis,
    @Nullable Long dataMillis,
    @Nullable Long sharesMillis,
    @Nullable String message,
    Counts counts) {

  /**
   * @param errors failures that lost something
   * @param warnings repairs (renamed or re-homed folders): restored, but not as in the backup
   */
  public record Counts(
      int accounts,
      int accountsDone,
      int accountsFailed,
      long itemsRestored,
      long itemsSkipped,
      long itemsFailed,
      long bytesRestored,
      long dedupHits,
      long errors,
      long warnings) {}
}
