package org.mailrestore.it;

/**
 * How hard the fault tests push: 1 in {@code ./mvnw verify}, more in the soak run ({@code ./mvnw
 * verify -Psoak}, see the README), where backups are larger and faults more frequent.
 */
final class Soak {

  private Soak() {}

  /** The factor to multiply sizes and fault counts by ({@code mailrestore.soak.scale}). */
  static int scale() {
    return Math.max(1, Integer.getInteger("mailrestore.soak.scale", 1));
  }
}
