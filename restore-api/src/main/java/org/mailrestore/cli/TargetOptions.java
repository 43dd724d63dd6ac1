package org.mailrestore.cli;

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
 * Where to restore to: the flag of an installed target kind ({@code --volume DIR|s3://...} for the
 * mailstore, {@code --target URL} for a server), with the kinds' own options. Without one, the
 * mailstore of the database, to be read back only.
 */
@Command
final class TargetOptions implements KindFlags.Installable {

  private final KindFlags flags = new KindFlags();
  private final Map<TargetKind, OptionSpec> locations = new LinkedHashMap<>();
  private final Map<TargetKind, Map<String, OptionSpec>> options = new LinkedHashMap<>();

  @Override
  public void install(CommandSpec command) {
    for (TargetKind kind : TargetKind.installed().all()) {
      KindOption location = kind.location();
      locations.put(
          kind,
          flags.add(command, location.cliFlag(kind.name()), "LOCATION", location.description()));
      Map<String, OptionSpec> byName = new LinkedHashMap<>();
      for (KindOption option : kind.options()) {
        byName.put(option.name(), flags.add(command, kind.name(), option));
      }
      options.put(kind, byName);
    }
  }

  /** The target the flags name, checked; the mailstore without a volume when none is named. */
  TargetSpec target() {
    List<TargetKind> given = new ArrayList<>();
    locations.forEach((kind, option) -> {
      if (KindFlags.value(option) != null) {
        given.add(kind);
      }
    });
    if (given.size() > 1) {
      throw new IllegalArgumentException(
          "name one target, not several: "
              + String.join(
                  ", ", given.stream().map(k -> k.location().cliFlag(k.name())).toList()));
    }
    TargetKind kind =
        given.isEmpty()
            ? TargetKind.installed().find(MailstoreKind.NAME).orElseThrow()
            : given.get(0);
    Map<String, String> values = new TreeMap<>();
    options
        .get(kind)
        .forEach((name, option) -> {
          String v = KindFlags.value(option);
          if (v != null) {
            values.put(name, v);
          }
        });
    String location = given.isEmpty() ? null : KindFlags.value(locations.get(kind));
    return new TargetSpec(kind.name(), location, new TreeMap<>(values)).normalize();
  }

  /** The target to write to: one must be named. */
  TargetSpec writableTarget() {
    TargetSpec spec = target();
    if (spec.location() == null) {
      throw new IllegalArgumentException(
          "name where to restore to: "
              + String.join(
                  " or ",
                  locations.keySet().stream()
                      .map(k -> k.location().cliFlag(k.name()) + " (" + k.description() + ")")
                      .toList()));
    }
    return spec;
  }
}
