package org.mailrestore.restore;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;
import org.jspecify.annotations.Nullable;

/** How fast a restore may go, as people give it: items and megabytes (10^6 bytes) per second. */
public record PaceBody(
    @Positive @Max(Pace.MAX_ITEMS_PER_SECOND) @Nullable Double maxItemsPerSecond,
    @Positive @Max(Pace.MAX_MB_PER_SECOND) @Nullable Double maxMbPerSecond) {

  public Pace pace() {
    return Pace.of(maxItemsPerSecond, maxMbPerSecond);
  }

  public static PaceBody of(Pace pace) {
    return new PaceBody(pace.itemsPerSecond(), pace.megabytesPerSecond());
  }
}
