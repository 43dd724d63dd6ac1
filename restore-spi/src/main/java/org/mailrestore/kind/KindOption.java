package org.mailrestore.kind;

import java.util.List;

/**
 * An option of a source or target kind: a Maildir tree's domain, a volume's compression. The CLI
 * offers it as {@link #cliFlag()}, the REST body as {@code options.<name>}.
 *
 * @param flag the CLI flag, or null for {@code --<kind>-<name>}
 * @param required the kind cannot be used without it
 * @param defaultValue the value when it is not given, or null
 * @param allowed the values it may take, or empty for any
 * @param secret a secret (a password): never in a request, only from the environment or a file
 */
public record KindOption(
    String name,
    String flag,
    String description,
    boolean required,
    String defaultValue,
    List<String> allowed,
    boolean secret) {

  public KindOption {
    allowed = allowed == null ? List.of() : List.copyOf(allowed);
  }

  public static KindOption required(String name, String description) {
    return new KindOption(name, null, description, true, null, List.of(), false);
  }

  public static KindOption optional(String name, String description) {
    return new KindOption(name, null, description, false, null, List.of(), false);
  }

  public static KindOption choice(
      String name, String description, String defaultValue, List<String> allowed) {
    return new KindOption(name, null, description, false, defaultValue, allowed, false);
  }

  /** The same option under another CLI flag. */
  public KindOption withFlag(String value) {
    return new KindOption(name, value, description, required, defaultValue, allowed, secret);
  }

  /** The same option with a default. */
  public KindOption withDefault(String value) {
    return new KindOption(name, flag, description, required, value, allowed, secret);
  }

  /** The CLI flag of this option for a kind. */
  public String cliFlag(String kind) {
    return flag != null ? flag : "--" + kind + "-" + name;
  }
}
