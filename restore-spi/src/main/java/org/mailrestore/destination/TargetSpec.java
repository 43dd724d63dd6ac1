package org.mailrestore.destination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOptions;

/**
 * Where a restore writes, in one shape for the CLI, the service's configuration and the database.
 * Secrets never appear here: a target kind reads them from the environment or a file.
 *
 * @param kind the target kind's name ({@code mailstore}...), see {@link TargetKind#installed()}
 * @param location where it is: a volume's directory or {@code s3://bucket/prefix}, a server's URL;
 *     null for a target only read back (the mailstore of a database, whatever its volumes)
 * @param options the kind's own options by name
 */
public record TargetSpec(String kind, String location, SortedMap<String, String> options) {

  /** Options are kept sorted; the kind is checked by {@link #normalize()}. */
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

  /**
   * The target checked and completed: options known and valid, defaults filled in.
   *
   * @throws FieldProblems.Invalid naming each wrong field
   */
  public TargetSpec normalize() {
    TargetKind targetKind = TargetKind.installed().require(kind);
    FieldProblems problems = new FieldProblems();
    TreeMap<String, String> checked =
        KindOptions.normalize(
            "target.options",
            "a " + targetKind.name() + " target",
            targetKind.options(),
            options,
            problems);
    if (location == null && targetKind.location().required()) {
      problems.add("target.location", "is required: " + targetKind.location().description());
    }
    TargetSpec normalized = new TargetSpec(kind, location, checked);
    if (problems.isEmpty()) {
      targetKind.check(normalized, problems);
    }
    problems.throwIfAny();
    return normalized;
  }

  /** The target for people, without secrets: its kind's description of it. */
  public String describe() {
    return TargetKind.installed()
        .find(kind)
        .map(k -> k.describe(this))
        .orElse(kind + " " + location);
  }

  /**
   * Checks the target and opens it with its kind.
   *
   * @throws FieldProblems.Invalid naming each wrong field
   * @throws IOException when it cannot be reached or is not usable (saying why)
   */
  public MailTarget open(TargetContext context) throws SQLException, IOException {
    TargetSpec normalized = normalize();
    return TargetKind.installed().require(kind).open(normalized, context);
  }
}
