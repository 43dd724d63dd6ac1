package org.mailrestore.mail;

import java.util.Map;

/** A mail domain, from {@code domains/<name>.json}. */
public record Domain(String name, String status, Map<String, String> attributes) {
  public Domain {
    attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    status = status == null ? "active" : status;
  }

  /** An active domain known only by its name. */
  public static Domain active(String name) {
    return new Domain(name, "active", Map.of());
  }
}
