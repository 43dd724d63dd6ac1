package org.mailrestore.restore;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An operation as the API shows it.
 *
 * @param rates items and bytes per second over phase 2 (so far, while it runs)
 * @param eta an estimate of when phase 2 ends, from the share of accounts finished; null when there
 *     is nothing to estimate from yet
 */
public record OperationView(
    String id,
    OperationState state,
    @Nullable Phase phase,
    String source,
    @Nullable RestoreRequest request,
    Instant createdAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    Phases phases,
    OperationSummary.Counts counts,
    @Nullable Rates rates,
    @Nullable Instant eta,
    @Nullable String message) {

  /** Milliseconds spent in each phase (a resumed phase adds up). */
  public record Phases(
      @Nullable Long provisioningMs, @Nullable Long dataMs, @Nullable Long sharesMs) {}

  public record Rates(double itemsPerSecond, double bytesPerSecond) {}

  /** The view of an operation as it stands at {@code now}: rates and ETA from its counts. */
  public static OperationView of(OperationSummary s, Instant now) {
    OperationSummary.Counts c = s.counts();
    Duration data = dataTime(s, now);
    @Nullable Rates rates = null;
    if (data != null && data.toMillis() > 0) {
      double seconds = data.toMillis() / 1000.0;
      rates =
          new Rates((c.itemsRestored() + c.itemsSkipped()) / seconds, c.bytesRestored() / seconds);
    }
    @Nullable Instant eta = null;
    if (s.state() == OperationState.RUNNING
        && s.phase() == Phase.DATA
        && data != null
        && c.accountsDone() > 0
        && c.accounts() > c.accountsDone()) {
      long remaining = data.toMillis() * (c.accounts() - c.accountsDone()) / c.accountsDone();
      eta = now.plusMillis(remaining);
    }
    return new OperationView(
        s.id(),
        s.state(),
        s.phase(),
        s.source(),
        s.request(),
        s.createdAt(),
        s.startedAt(),
        s.finishedAt(),
        new Phases(s.provisioningMillis(), s.dataMillis(), s.sharesMillis()),
        c,
        rates,
        eta,
        s.message());
  }

  /** How long phase 2 has run: as recorded once it ended, else since it started (estimated). */
  private static @Nullable Duration dataTime(OperationSummary s, Instant now) {
    if (s.dataMillis() != null && s.phase() != Phase.DATA) {
      return Duration.ofMillis(s.dataMillis());
    }
    if (s.phase() == Phase.DATA && s.startedAt() != null) {
      Instant dataStart =
          s.startedAt().plusMillis(s.provisioningMillis() == null ? 0 : s.provisioningMillis());
      Instant until = s.finishedAt() != null ? s.finishedAt() : now;
      return until.isAfter(dataStart) ? Duration.between(dataStart, until) : null;
    }
    return null;
  }
}
