package org.mailrestore.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mailrestore.kind.KindOption;
import org.mailrestore.source.SourceKind;
import org.mailrestore.source.SourceSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * What to restore from: one flag per installed source kind ({@code --backup DIR|s3://...}, {@code
 * --maildir DIR}...), with the kinds' own options ({@code --maildir-domain}...).
 */
final class SourceOptions implements KindFlags.Installable {

  @Option(
      names = "--s3-profile",
      defaultValue = "default",
      description =
          "The S3 profile of an s3:// source (MAILRESTORE_S3_<PROFILE>_*; default: ${DEFAULT-VALUE})")
  String profile;

  private final KindFlags flags = new KindFlags();
  private final Map<SourceKind, OptionSpec> locations = new LinkedHashMap<>();
  private final Map<SourceKind, Map<String, OptionSpec>> options = new LinkedHashMap<>();

  @Override
  public void install(CommandSpec command) {
    for (SourceKind kind : SourceKind.installed().all()) {
      String label =
          switch (kind.location()) {
            case DIRECTORY -> "DIR";
            case FILE -> "FILE";
            case FILE_OR_DIRECTORY -> "PATH";
          };
      locations.put(kind, flags.add(command, "--" + kind.name(), label, kind.description()));
      Map<String, OptionSpec> byName = new LinkedHashMap<>();
      for (KindOption option : kind.options()) {
        byName.put(option.name(), flags.add(command, kind.name(), option));
      }
      options.put(kind, byName);
    }
  }

  /** Whether a source was given (a resumed restore has its own). */
  boolean given() {
    return locations.values().stream().anyMatch(o -> KindFlags.value(o) != null);
  }

  /** The source the flags name, checked. */
  SourceSpec source() {
    List<SourceKind> given = new ArrayList<>();
    locations.forEach((kind, option) -> {
      if (KindFlags.value(option) != null) {
        given.add(kind);
      }
    });
    if (given.size() != 1) {
      throw new IllegalArgumentException(
          (given.isEmpty() ? "name what to restore from: " : "name one source, not several: ")
              + String.join(", ", locations.keySet().stream().map(k -> "--" + k.name()).toList()));
    }
    SourceKind kind = given.get(0);
    String location = KindFlags.value(locations.get(kind));
    boolean s3 = location.startsWith(SourceSpec.S3_SCHEME);
    Map<String, String> values = new TreeMap<>();
    options
        .get(kind)
        .forEach((name, option) -> {
          String v = KindFlags.value(option);
          if (v != null) {
            values.put(name, v);
          }
        });
    return new SourceSpec(
            kind.name(),
            s3 ? location : Path.of(location).toAbsolutePath().normalize().toString(),
            s3 ? profile : null,
            new TreeMap<>(values))
        .normalize();
  }
}
