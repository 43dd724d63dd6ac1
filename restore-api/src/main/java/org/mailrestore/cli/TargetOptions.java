package org.mailrestore.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.kind.KindOption;
import org.mailrestore.mailstore.MailstoreKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Where to restore to: the flags of installed target kinds ({@code --volume DIR|s3://...} for the
 * mailstore, {@code --target URL} for a server), with the kinds' own options; several compose.
 * Without one, the mailstore of the database, to be read back only.
 */
@Command
final class TargetOptions implements KindFlags.Installable {

  private final KindFlags flags = new KindFlags();
  private final Map<TargetKind, OptionSpec> locations = new LinkedHashMap<>();
  private final Map<TargetKind, Map<String, OptionSpec>> options = new LinkedHashMap<>();

  @Override
  public void install(CommandSpec command) {
    // Locations first: a flag that is one kind's location and another's option (--provision) is
    // made repeatable, as locations are.
    for (TargetKind kind : TargetKind.installed().all()) {
      KindOption location = kind.location();
      locations.put(
          kind,
          flags.addRepeatable(
              command, location.cliFlag(kind.name()), "LOCATION", location.description()));
    }
    for (TargetKind kind : TargetKind.installed().all()) {
      Map<String, OptionSpec> byName = new LinkedHashMap<>();
      for (KindOption option : kind.options()) {
        byName.put(option.name(), flags.add(command, kind.name(), option));
      }
      options.put(kind, byName);
    }
  }

  /**
   * The targets the flags name, checked: several compose, each taking the kinds of item it carries
   * (a mailstore volume and an IMAP server: messages to the server, the rest to the mailstore); the
   * mailstore without a volume when none is named.
   */
  List<TargetSpec> targets() {
    Map<TargetKind, String> given = new LinkedHashMap<>();
    Map<OptionSpec, List<String>> unclaimed = new LinkedHashMap<>();
    locations.forEach((kind, option) -> {
      unclaimed.computeIfAbsent(option, o -> new ArrayList<>(KindFlags.values(o)));
      for (String value : KindFlags.values(option)) {
        if (kind.takesLocation(value)) {
          String before = given.put(kind, value);
          if (before != null) {
            throw new IllegalArgumentException(
                "one " + kind.name() + " target at most: " + before + " and " + value);
          }
          unclaimed.get(option).remove(value);
        }
      }
    });
    unclaimed.forEach((option, values) -> {
      if (!values.isEmpty() && isOnlyALocation(option)) {
        throw new IllegalArgumentException(
            option.longestName()
                + " "
                + values.get(0)
                + " names no target kind: "
                + String.join(
                    ", ",
                    locations.entrySet().stream()
                        .filter(e -> e.getValue() == option)
                        .map(e -> e.getKey().description())
                        .toList()));
      }
    });
    if (given.isEmpty()) {
      return List.of(spec(TargetKind.installed().require(MailstoreKind.NAME), null));
    }
    List<TargetSpec> specs = new ArrayList<>();
    given.forEach((kind, location) -> specs.add(spec(kind, location)));
    return specs;
  }

  /** Whether a flag is only ever a location (not also some kind's option, as --provision is). */
  private boolean isOnlyALocation(OptionSpec option) {
    return options.values().stream().noneMatch(byName -> byName.containsValue(option));
  }

  private TargetSpec spec(TargetKind kind, String location) {
    Map<String, String> values = new TreeMap<>();
    options
        .get(kind)
        .forEach((name, option) -> {
          List<String> own =
              KindFlags.values(option).stream()
                  .filter(v -> !namesAnotherTarget(kind, option, v))
                  .toList();
          if (own.size() > 1) {
            throw new IllegalArgumentException(
                option.longestName() + " is given " + own.size() + " times: " + own);
          }
          if (!own.isEmpty()) {
            values.put(name, own.get(0));
          }
        });
    // A local path is recorded with the operation: absolute, so that a resume from another
    // directory writes to the same place.
    String where =
        location == null || location.contains("://")
            ? location
            : Path.of(location).toAbsolutePath().normalize().toString();
    return new TargetSpec(kind.name(), where, new TreeMap<>(values)).normalize();
  }

  /**
   * Whether a flag one kind has as an option names another kind's target by this value ({@code
   * --provision ldap://...} is the directory's location, not the IMAP kind's {@code --provision}).
   */
  private boolean namesAnotherTarget(TargetKind kind, OptionSpec option, String value) {
    for (Map.Entry<TargetKind, OptionSpec> location : locations.entrySet()) {
      if (location.getKey() != kind
          && location.getValue() == option
          && location.getKey().takesLocation(value)) {
        return true;
      }
    }
    return false;
  }

  /** The targets the flags name: empty when none is named. */
  List<TargetSpec> namedTargets() {
    List<TargetSpec> specs = targets();
    return specs.size() == 1 && specs.get(0).location() == null ? List.of() : specs;
  }

  /** The targets to write to: one at least must be named. */
  List<TargetSpec> writableTargets() {
    List<TargetSpec> specs = namedTargets();
    if (specs.isEmpty()) {
      throw new IllegalArgumentException(
          "name where to restore to: "
              + String.join(
                  " or ",
                  locations.keySet().stream()
                      .map(k -> k.location().cliFlag(k.name()) + " (" + k.description() + ")")
                      .toList()));
    }
    return specs;
  }
}
