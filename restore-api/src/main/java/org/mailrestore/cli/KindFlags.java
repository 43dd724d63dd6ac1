package org.mailrestore.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.kind.KindOption;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The CLI options of source and target kinds, added to commands when the command line is built: a
 * kind installed is a kind the CLI offers, with no command to change. Each kind's location is one
 * flag ({@code --maildir DIR}, {@code --volume DIR}); its options are flags too ({@code
 * --maildir-domain}).
 */
final class KindFlags {

  /** Commands whose options include the kinds' flags. */
  interface Installable {
    void install(CommandSpec command);
  }

  private final Map<String, OptionSpec> flags = new LinkedHashMap<>();

  /** Adds a flag (once: kinds may share one) that takes a value. */
  OptionSpec add(CommandSpec command, String flag, String label, String description) {
    return add(command, flag, label, description, Shape.SINGLE);
  }

  /**
   * Adds a flag that may be given several times (once: kinds may share one): a location flag that
   * several kinds share ({@code --target imap://... --target dav://...}), each taking the values
   * that name it.
   */
  OptionSpec addRepeatable(CommandSpec command, String flag, String label, String description) {
    return add(command, flag, label, description, Shape.REPEATABLE);
  }

  private enum Shape {
    SINGLE,
    REPEATABLE,
    TOGGLE
  }

  private OptionSpec add(
      CommandSpec command, String flag, String label, String description, Shape shape) {
    OptionSpec existing = flags.get(flag);
    if (existing != null) {
      return existing;
    }
    OptionSpec.Builder b = OptionSpec.builder(flag).description(description).hidden(false);
    switch (shape) {
      case TOGGLE -> b.type(boolean.class).arity("0..1");
      case REPEATABLE -> b.type(List.class).auxiliaryTypes(String.class).paramLabel(label);
      case SINGLE -> b.type(String.class).paramLabel(label);
    }
    OptionSpec option = b.build();
    command.addOption(option);
    flags.put(flag, option);
    return option;
  }

  /** Adds a kind's option as a flag. */
  OptionSpec add(CommandSpec command, String kind, KindOption option) {
    boolean toggle = option.allowed().equals(List.of("true", "false"));
    String description =
        option.description()
            + (option.allowed().isEmpty() || toggle
                ? ""
                : " (" + String.join(", ", option.allowed()) + ")")
            + (option.defaultValue() == null || toggle
                ? ""
                : " (default: " + option.defaultValue() + ")");
    return add(
        command, option.cliFlag(kind), "VALUE", description, toggle ? Shape.TOGGLE : Shape.SINGLE);
  }

  /**
   * A flag's value as text, or null when it was not given.
   *
   * @throws IllegalArgumentException when it was given more than once
   */
  static String value(OptionSpec option) {
    List<String> all = values(option);
    if (all.size() > 1) {
      throw new IllegalArgumentException(
          option.longestName() + " is given " + all.size() + " times: " + all);
    }
    return all.isEmpty() ? null : all.get(0);
  }

  /** Every value a flag was given, in order (none when it was not given). */
  static List<String> values(OptionSpec option) {
    Object v = option.getValue();
    if (v == null || Boolean.FALSE.equals(v)) {
      return List.of();
    }
    if (v instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    return List.of(String.valueOf(v));
  }

  /** Adds the kinds' flags to every command of the tree whose mixins take them. */
  static void installAll(CommandLine cli) {
    install(cli.getCommandSpec());
  }

  private static void install(CommandSpec command) {
    installMixins(command, command);
    for (CommandLine sub : command.subcommands().values()) {
      install(sub.getCommandSpec());
    }
  }

  private static void installMixins(CommandSpec command, CommandSpec holder) {
    for (CommandSpec mixin : holder.mixins().values()) {
      if (mixin.userObject() instanceof Installable installable) {
        installable.install(command);
      }
      installMixins(command, mixin);
    }
  }
}
