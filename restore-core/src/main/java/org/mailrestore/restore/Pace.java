package org.mailrestore.restore;

import org.jspecify.annotations.Nullable;

/**
 * How fast an operation may go, so that a restore into a live server leaves it room: items and
 * bytes per second; null for no bound.
 */
public record Pace(@Nullable Double itemsPerSecond, @Nullable Double bytesPerSecond) {

  /** As fast as the bounds on concurrency allow. */
  public static final Pace UNLIMITED = new Pace(null, null);

  /** The fastest pace one can ask for in items per second (the request's declared bound). */
  public static final long MAX_ITEMS_PER_SECOND = 1_000_000_000L;

  /** The fastest in megabytes per second (the request's declared bound). */
  public static final long MAX_MB_PER_SECOND = 10_000_000L;

  public Pace {
    if ((itemsPerSecond != null && !(itemsPerSecond > 0 && itemsPerSecond <= MAX_ITEMS_PER_SECOND))
        || (bytesPerSecond != null
            && !(bytesPerSecond > 0 && bytesPerSecond <= MAX_MB_PER_SECOND * 1e6))) {
      throw new IllegalArgumentException(
          "a pace is a positive number of items (at most "
              + MAX_ITEMS_PER_SECOND
              + ") or megabytes (at most "
              + MAX_MB_PER_SECOND
              + ") per second, or none");
    }
  }

  /** From the figures people give: items per second and megabytes (10^6 bytes) per second. */
  public static Pace of(@Nullable Double itemsPerSecond, @Nullable Double megabytesPerSecond) {
    return new Pace(itemsPerSecond, megabytesPerSecond == null ? null : megabytesPerSecond * 1e6);
  }

  /** The byte bound in megabytes (10^6 bytes) per second, as people give it; null for none. */
  public @Nullable Double megabytesPerSecond() {
    return bytesPerSecond == null ? null : bytesPerSecond / 1e6;
  }

  public boolean isLimited() {
    return itemsPerSecond != null || bytesPerSecond != null;
  }
}
