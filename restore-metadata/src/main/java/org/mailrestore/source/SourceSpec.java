package org.mailrestore.source;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a restore reads from, in the one shape the CLI, the REST body, the database and the OpenAPI
 * document share. Credentials never appear here: an S3 location names a configured profile.
 *
 * @param kind the source kind's name ({@code backup}, {@code maildir}...), see {@link SourceKinds}
 * @param location an absolute local path, or {@code s3://bucket/prefix} for kinds that read S3
 * @param profile for an S3 location, the configured S3 profile that reaches it; otherwise null
 * @param options the kind's own options by name (a Maildir tree's domain, an mbox's account...)
 */
public record SourceSpec(
    String kind, String location, String profile, SortedMap<String, String> options) {

  public static final String S3_SCHEME = "s3://";

  /** Options are kept sorted; the kind and the location are checked by {@link SourceKinds}. */
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
}
