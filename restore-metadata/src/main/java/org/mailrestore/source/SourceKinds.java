package org.mailrestore.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOptions;

/**
 * The source kinds installed (found with {@link ServiceLoader}), and what applies to every source
 * whatever its kind: the location's form, the options' names and values, S3 profiles.
 */
public final class SourceKinds {

  private static final SourceKinds INSTALLED = load();

  private final List<SourceKind> kinds;

  SourceKinds(List<SourceKind> kinds) {
    this.kinds = kinds.stream().sorted(Comparator.comparing(SourceKind::name)).toList();
  }

  private static SourceKinds load() {
    List<SourceKind> found = new ArrayList<>();
    ServiceLoader.load(SourceKind.class, SourceKinds.class.getClassLoader()).forEach(found::add);
    return new SourceKinds(found);
  }

  /** Every source kind on the class path. */
  public static SourceKinds installed() {
    return INSTALLED;
  }

  /** The kinds, by name. */
  public List<SourceKind> all() {
    return kinds;
  }

  public List<String> names() {
    return kinds.stream().map(SourceKind::name).toList();
  }

  public Optional<SourceKind> find(String name) {
    return kinds.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /**
   * The kind of a source.
   *
   * @throws FieldProblems.Invalid when no such kind is installed
   */
  public SourceKind kindOf(SourceSpec spec) {
    if (spec.kind() == null || spec.kind().isBlank()) {
      throw new FieldProblems.Invalid(
          "source.kind", "is required (one of " + String.join(", ", names()) + ")");
    }
    return find(spec.kind())
        .orElseThrow(() ->
            new FieldProblems.Invalid(
                List.of(
                    new FieldProblems.Problem(
                        "source.kind",
                        "\""
                            + spec.kind()
                            + "\" is not a source kind (known: "
                            + String.join(", ", names())
                            + ")"))));
  }

  /**
   * The source checked and completed: options known and valid, defaults filled in, an S3 profile
   * named for an S3 location.
   *
   * @throws FieldProblems.Invalid naming each wrong field
   */
  public SourceSpec normalize(SourceSpec spec) {
    SourceKind kind = kindOf(spec);
    if (spec.location() == null || spec.location().isBlank()) {
      throw new FieldProblems.Invalid(
          "source.location",
          "is required: an absolute path" + (kind.readsS3() ? " or s3://bucket/prefix" : ""));
    }
    FieldProblems problems = new FieldProblems();
    String profile = spec.profile();
    if (spec.isS3()) {
      if (!kind.readsS3()) {
        problems.add("source.location", "a " + kind.name() + " source cannot be read from S3");
      } else if (!spec.location().matches("s3://[^/]+(/.*)?")) {
        problems.add("source.location", "must be s3://bucket/prefix");
      }
      profile = profile == null || profile.isBlank() ? "default" : profile;
    } else {
      if (!spec.location().startsWith("/")) {
        problems.add("source.location", "must be an absolute path or s3://bucket/prefix");
      }
      if (profile != null) {
        problems.add("source.profile", "applies only to an s3:// location");
      }
    }
    TreeMap<String, String> options =
        KindOptions.normalize(
            "source.options",
            "a " + kind.name() + " source",
            kind.options(),
            spec.options(),
            problems);
    SourceSpec normalized = new SourceSpec(spec.kind(), spec.location(), profile, options);
    if (problems.isEmpty()) {
      kind.check(normalized, problems);
    }
    problems.throwIfAny();
    return normalized;
  }

  /** The source for people. */
  public String describe(SourceSpec spec) {
    return find(spec.kind()).map(k -> k.describe(spec)).orElse(spec.kind() + " " + spec.location());
  }

  /** Checks and opens a source. */
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    SourceSpec normalized = normalize(spec);
    if (normalized.isS3() && !context.s3().has(normalized.profile())) {
      throw new IOException(
          "no S3 profile '"
              + normalized.profile()
              + "' is configured, so "
              + normalized.location()
              + " cannot be read");
    }
    return kindOf(normalized).open(normalized, context);
  }
}
