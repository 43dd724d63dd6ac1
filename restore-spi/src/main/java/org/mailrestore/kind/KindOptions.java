package org.mailrestore.kind;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What applies to the options of every source and target kind. */
public final class KindOptions {

  private KindOptions() {}

  /**
   * The options as given, checked against those a kind declares: unknown names, missing required
   * ones and values outside the allowed ones are added to {@code problems}; defaults are filled in.
   *
   * @param field the request field the options are under ({@code source.options})
   */
  public static TreeMap<String, String> normalize(
      String field,
      String kind,
      List<KindOption> declared,
      Map<String, String> given,
      FieldProblems problems) {
    TreeMap<String, String> options = new TreeMap<>();
    for (String name : given.keySet()) {
      if (declared.stream().noneMatch(o -> o.name().equals(name))) {
        problems.add(
            field + "." + name,
            "is not an option of "
                + kind
                + (declared.isEmpty()
                    ? " (it takes none)"
                    : " (known: "
                        + String.join(", ", declared.stream().map(KindOption::name).toList())
                        + ")"));
      }
    }
    for (KindOption option : declared) {
      String value = given.get(option.name());
      if (value == null || value.isBlank()) {
        if (option.required()) {
          problems.add(field + "." + option.name(), "is required: " + option.description());
        } else if (option.defaultValue() != null) {
          options.put(option.name(), option.defaultValue());
        }
        continue;
      }
      if (!option.allowed().isEmpty() && !option.allowed().contains(value)) {
        problems.add(
            field + "." + option.name(),
            "must be one of " + String.join(", ", option.allowed()) + ", not \"" + value + "\"");
      }
      options.put(option.name(), value);
    }
    return options;
  }
}
