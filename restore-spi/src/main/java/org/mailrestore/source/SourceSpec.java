package org.mailrestore.source;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOptions;

/**
 * Where a restore reads from, in the one shape the CLI, the REST body, the database and the OpenAPI
 * document share. Credentials never appear here: an S3 location names a configured profile.
 *
 * @param kind the source kind's name ({@code backup}, {@code maildir}...), see {@link
 *     SourceKind#installed()}
 * @param location an absolute local path, or {@code s3://bucket/prefix} for kinds that read S3
 * @param profile for an S3 location, the configured S3 profile that reaches it; otherwise null
 * @param options the kind's own options by name (a Maildir tree's domain, an mbox's account...)
 */
public record SourceSpec(
    String kind, String location, String profile, SortedMap<String, String> options) {

  public static final String S3_SCHEME = "s3://";

  /** Options are kept sorted; the kind and the location are checked by {@link #normalize()}. */
  public SourceSpec {
    options =
        Collections.unmodifiableSortedMap(
            options == null ? new TreeMap<>() : new TreeMap<>(options));
  }

  /** A source without options. */
  public static SourceSpec of(String kind, String location) {
    return new SourceSpec(kind, location, null, null);
  }

  /** A source with options. */
  public static SourceSpec of(String kind, String location, Map<String, String> options) {
    return new SourceSpec(kind, location, null, new TreeMap<>(options));
  }

  /** True when the location is {@code s3://bucket/prefix}. */
  @JsonIgnore
  public boolean isS3() {
    return location != null && location.startsWith(S3_SCHEME);
  }

  /** An option's value, or null. */
  public String option(String name) {
    return options.get(name);
  }

  public SourceSpec withLocation(String value) {
    return new SourceSpec(kind, value, profile, options);
  }

  public SourceSpec withOptions(Map<String, String> value) {
    return new SourceSpec(kind, location, profile, new TreeMap<>(value));
  }

  public SourceSpec withProfile(String value) {
    return new SourceSpec(kind, location, value, options);
  }

  /**
   * The source checked and completed: options known and valid, defaults filled in, an S3 profile
   * named for an S3 location.
   *
   * @throws FieldProblems.Invalid naming each wrong field
   */
  public SourceSpec normalize() {
    SourceKind sourceKind = SourceKind.installed().require(kind);
    if (location == null || location.isBlank()) {
      throw new FieldProblems.Invalid(
          "source.location",
          "is required: an absolute path" + (sourceKind.readsS3() ? " or s3://bucket/prefix" : ""));
    }
    FieldProblems problems = new FieldProblems();
    String named = profile;
    if (isS3()) {
      if (!sourceKind.readsS3()) {
        problems.add(
            "source.location", "a " + sourceKind.name() + " source cannot be read from S3");
      } else if (!location.matches("s3://[^/]+(/.*)?")) {
        problems.add("source.location", "must be s3://bucket/prefix");
      }
      named = named == null || named.isBlank() ? "default" : named;
    } else {
      if (!location.startsWith("/")) {
        problems.add("source.location", "must be an absolute path or s3://bucket/prefix");
      }
      if (named != null) {
        problems.add("source.profile", "applies only to an s3:// location");
      }
    }
    TreeMap<String, String> checked =
        KindOptions.normalize(
            "source.options",
            "a " + sourceKind.name() + " source",
            sourceKind.options(),
            options,
            problems);
    SourceSpec normalized = new SourceSpec(kind, location, named, checked);
    if (problems.isEmpty()) {
      sourceKind.check(normalized, problems);
    }
    problems.throwIfAny();
    return normalized;
  }

  /** The source for people: its kind's description of it. */
  public String describe() {
    return SourceKind.installed()
        .find(kind)
        .map(k -> k.describe(this))
        .orElse(kind + " " + location);
  }

  /**
   * Checks the source and opens it with its kind.
   *
   * @throws FieldProblems.Invalid naming each wrong field
   * @throws SourceFormatException when it is not a source of its kind, or cannot be read at all
   * @throws IOException when it cannot be reached, or its S3 profile is not configured
   */
  public MailSource open(SourceContext context) throws IOException {
    SourceSpec normalized = normalize();
    if (normalized.isS3() && !context.s3().has(normalized.profile())) {
      throw new IOException(
          "no S3 profile '"
              + normalized.profile()
              + "' is configured, so "
              + normalized.location()
              + " cannot be read");
    }
    return SourceKind.installed().require(kind).open(normalized, context);
  }
}
