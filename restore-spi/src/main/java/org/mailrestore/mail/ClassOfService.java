package org.mailrestore.mail;

import java.util.Map;

/** A class of service (account defaults and limits), from {@code cos/<name>.json}. */
public record ClassOfService(String name, Map<String, String> attributes) {
  public ClassOfService {
    attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
  }
}
