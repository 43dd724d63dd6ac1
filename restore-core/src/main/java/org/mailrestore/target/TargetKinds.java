package org.mailrestore.target;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOptions;

/** The target kinds installed (found with {@link ServiceLoader}). */
public final class TargetKinds {

  private static final TargetKinds INSTALLED = load();

  private final List<TargetKind> kinds;

  private TargetKinds(List<TargetKind> kinds) {
    this.kinds = kinds.stream().sorted(Comparator.comparing(TargetKind::name)).toList();
  }

  private static TargetKinds load() {
    List<TargetKind> found = new ArrayList<>();
    ServiceLoader.load(TargetKind.class, TargetKinds.class.getClassLoader()).forEach(found::add);
    return new TargetKinds(found);
  }

  public static TargetKinds installed() {
    return INSTALLED;
  }

  public List<TargetKind> all() {
    return kinds;
  }

  public List<String> names() {
    return kinds.stream().map(TargetKind::name).toList();
  }

  public Optional<TargetKind> find(String name) {
    return kinds.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /**
   * @throws FieldProblems.Invalid when no such kind is installed
   */
  public TargetKind kindOf(TargetSpec spec) {
    if (spec.kind() == null || spec.kind().isBlank()) {
      throw new FieldProblems.Invalid(
          "target.kind", "is required (one of " + String.join(", ", names()) + ")");
    }
    return find(spec.kind())
        .orElseThrow(() ->
            new FieldProblems.Invalid(
                "target.kind",
                "\""
                    + spec.kind()
                    + "\" is not a target kind (known: "
                    + String.join(", ", names())
                    + ")"));
  }

  /**
   * The target checked and completed: options known and valid, defaults filled in.
   *
   * @throws FieldProblems.Invalid naming each wrong field
   */
  public TargetSpec normalize(TargetSpec spec) {
    TargetKind kind = kindOf(spec);
    FieldProblems problems = new FieldProblems();
    TreeMap<String, String> options =
        KindOptions.normalize(
            "target.options",
            "a " + kind.name() + " target",
            kind.options(),
            spec.options(),
            problems);
    if (spec.location() == null && kind.location().required()) {
      problems.add("target.location", "is required: " + kind.location().description());
    }
    TargetSpec normalized = new TargetSpec(spec.kind(), spec.location(), options);
    if (problems.isEmpty()) {
      kind.check(normalized, problems);
    }
    problems.throwIfAny();
    return normalized;
  }

  public String describe(TargetSpec spec) {
    return find(spec.kind()).map(k -> k.describe(spec)).orElse(spec.kind() + " " + spec.location());
  }

  /** Checks and opens a target. */
  public MailTarget open(TargetSpec spec, TargetContext context) throws SQLException, IOException {
    TargetSpec normalized = normalize(spec);
    return kindOf(normalized).open(normalized, context);
  }
}
