package org.mailrestore.mail;

import java.util.List;
import java.util.Map;

/** A distribution list and its members, from {@code lists/<address>.json}. */
public record DistributionList(
    String address, String displayName, List<String> members, Map<String, String> attributes) {
  public DistributionList {
    members = members == null ? List.of() : List.copyOf(members);
    attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
  }

  public String domain() {
    return address.substring(address.indexOf('@') + 1);
  }
}
