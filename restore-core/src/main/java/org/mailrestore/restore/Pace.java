package org.mailrestore.restore;

/**
 * How fast an operation may go, so that a restore into a live server leaves it room: items and
 * bytes per second; null for no bound.
 */
public record Pace(Double itemsPerSecond, Double bytesPerSecond) {

  /** As fast as the bounds on concurrency allow. */
  public static final Pace UNLIMITED = new Pace(null, null);

  public Pace {
    if ((itemsPerSecond != null && !(itemsPerSecond > 0 && itemsPerSecond < 1e9))
        || (bytesPerSecond != null && !(bytesPerSecond > 0 && bytesPerSecond < 1e13))) {
      throw new IllegalArgumentException(
          "a pace is a positive number of items or bytes per second (or none)");
    }
  }

  /** From the figures people give: items per second and megabytes (10^6 bytes) per second. */
  public static Pace of(Double itemsPerSecond, Double megabytesPerSecond) {
    return new Pace(itemsPerSecond, megabytesPerSecond == null ? null : megabytesPerSecond * 1e6);
  }

  /** The byte bound in megabytes (10^6 bytes) per second, as people give it; null for none. */
  public Double megabytesPerSecond() {
    return bytesPerSecond == null ? null : bytesPerSecond / 1e6;
  }

  public boolean isLimited() {
    return itemsPerSecond != null || bytesPerSecond != null;
  }
}
