package org.mailrestore.source;

import java.io.IOException;
import java.util.List;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.Kind;
import org.mailrestore.kind.KindOption;
import org.mailrestore.kind.Kinds;

/**
 * A kind of place restores read from (our backup format, Maildir trees, archives). One
 * implementation per format, registered in {@code
 * META-INF/services/org.mailrestore.source.SourceKind}: the CLI flag, the REST body, the allowed
 * roots policy and the OpenAPI document all follow from it. docs/extending.md says how to add one.
 */
public interface SourceKind extends Kind {

  /** The source kinds on the class path. */
  static Kinds<SourceKind> installed() {
    return Kinds.installed(SourceKind.class, "source kind", "source.kind");
  }

  /** What a local location of this kind is. */
  enum Location {
    DIRECTORY,
    FILE,
    FILE_OR_DIRECTORY
  }

  /** The kind's name: {@code source.kind} in requests; the CLI flag is {@code --<name>}. */
  @Override
  String name();

  Location location();

  /** True when the location may be {@code s3://bucket/prefix}. */
  boolean readsS3();

  /** The kind's own options. */
  default List<KindOption> options() {
    return List.of();
  }

  /**
   * Checks what the generic checks cannot (an option's form, a combination), adding what is wrong
   * to {@code problems}.
   */
  default void check(SourceSpec spec, FieldProblems problems) {}

  /** The source for people: its kind, location and what matters of its options. */
  String describe(SourceSpec spec);

  /**
   * Opens the source.
   *
   * @throws SourceFormatException when it is not a source of this kind, or cannot be read at all
   * @throws IOException when it cannot be reached
   */
  MailSource open(SourceSpec spec, SourceContext context) throws IOException;
}
