package org.mailrestore.backup;

import java.time.Instant;
import java.util.Optional;

/**
 * Which state of each item a restore brings back: the latest (the default), or the state at an
 * instant.
 *
 * @param asOf the instant, or null for the latest state
 */
public record PointInTime(Instant asOf) {

  public static final PointInTime LATEST = new PointInTime(null);

  /** The item's state to restore, or empty when it did not exist (or was deleted) then. */
  public Optional<Revision> select(Item item) {
    return asOf == null ? item.latest() : item.stateAt(asOf.toEpochMilli());
  }
}
