package org.mailrestore.target;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a restore writes, in one shape for the CLI, the service's configuration and the database.
 * Secrets never appear here: a target kind reads them from the environment or a file.
 *
 * @param kind the target kind's name ({@code mailstore}...), see {@link TargetKinds}
 * @param location where it is: a volume's directory or {@code s3://bucket/prefix}, a server's URL;
 *     null for a target only read back (the mailstore of a database, whatever its volumes)
 * @param options the kind's own options by name
 */
public record TargetSpec(String kind, String location, SortedMap<String, String> options) {

  /** Options are kept sorted; the kind is checked by {@link TargetKinds}. */
  public TargetSpec {
    if (location != null && location.isBlank()) {
      location = null;
    }
    options =
        Collections.unmodifiableSortedMap(
            options == null ? new TreeMap<>() : new TreeMap<>(options));
  }

  public static TargetSpec of(String kind, String location, Map<String, String> options) {
    return new TargetSpec(kind, location, new TreeMap<>(options));
  }

  /** An option's value, or null. */
  public String option(String name) {
    return options.get(name);
  }
}
