package org.mailrestore.mail;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which state of each item a restore brings back: the latest (the default), or the state at an
 * instant; and, optionally, the items deleted inside a window (undelete), in the state they had
 * just before their deletion.
 *
 * @param asOf the instant, or null for the latest state
 * @param undeleteFrom start of the undelete window (inclusive), or null for no undelete
 * @param undeleteTo end of the undelete window (exclusive), or null for "until {@code asOf}"
 */
public record PointInTime(Instant asOf, Instant undeleteFrom, Instant undeleteTo) {

  public static final PointInTime LATEST = new PointInTime(null, null, null);

  /** The earliest instant a restore accepts: the Unix epoch (no mailbox holds older states). */
  public static final Instant EARLIEST = Instant.EPOCH;

  /** The latest instant a restore accepts: the end of the year 9999. */
  public static final Instant LATEST_ACCEPTED = Instant.parse("9999-12-31T23:59:59.999Z");

  public PointInTime {
    inRange("asOf", asOf);
    inRange("undeleteFrom", undeleteFrom);
    inRange("undeleteTo", undeleteTo);
    if (undeleteFrom == null && undeleteTo != null) {
      throw new IllegalArgumentException("an undelete window needs a start");
    }
    if (undeleteFrom != null && undeleteTo != null && !undeleteFrom.isBefore(undeleteTo)) {
      throw new IllegalArgumentException(
          "the undelete window must start before it ends: " + undeleteFrom + " .. " + undeleteTo);
    }
    if (asOf != null && undeleteFrom != null && undeleteFrom.isAfter(asOf)) {
      throw new IllegalArgumentException(
          "the undelete window starts at " + undeleteFrom + ", after the restore's time " + asOf);
    }
  }

  private static void inRange(String name, Instant value) {
    if (value != null && (value.isBefore(EARLIEST) || value.isAfter(LATEST_ACCEPTED))) {
      throw new IllegalArgumentException(
          name + " must lie between " + EARLIEST + " and " + LATEST_ACCEPTED);
    }
  }

  public PointInTime(Instant asOf) {
    this(asOf, null, null);
  }

  /** The same instant with an undelete window. */
  public PointInTime withUndelete(Instant from, Instant to) {
    return new PointInTime(asOf, from, to);
  }

  /**
   * The item's state to restore: its state at the instant; or, when it was deleted then by a
   * deletion inside the undelete window, the state it had just before; otherwise empty.
   */
  public Optional<Revision> select(Item item) {
    Optional<Revision> state = asOf == null ? item.latest() : item.stateAt(asOf.toEpochMilli());
    if (state.isPresent() || undeleteFrom == null) {
      return state;
    }
    return beforeDeletionInWindow(item.revisions());
  }

  private Optional<Revision> beforeDeletionInWindow(List<Revision> revisions) {
    long t = asOf == null ? Long.MAX_VALUE - 1 : asOf.toEpochMilli();
    for (int i = revisions.size() - 1; i >= 0; i--) {
      Revision r = revisions.get(i);
      if (!r.isValidAt(t)) {
        continue;
      }
      // The revision in force at t is the deletion that hides the item: is it in the window?
      long from = undeleteFrom.toEpochMilli();
      long to = undeleteTo == null ? Long.MAX_VALUE : undeleteTo.toEpochMilli();
      if (!r.deleted() || r.validFrom() < from || r.validFrom() >= to) {
        return Optional.empty();
      }
      for (int j = i - 1; j >= 0; j--) {
        if (!revisions.get(j).deleted()) {
          return Optional.of(revisions.get(j));
        }
      }
      return Optional.empty();
    }
    return Optional.empty();
  }
}
