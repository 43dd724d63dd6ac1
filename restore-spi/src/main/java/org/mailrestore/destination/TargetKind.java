package org.mailrestore.destination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.Kind;
import org.mailrestore.kind.KindOption;
import org.mailrestore.kind.Kinds;

/**
 * A kind of place restores write to. One implementation per kind, registered in {@code
 * META-INF/services/org.mailrestore.destination.TargetKind}: the CLI's options, the configuration
 * and the checks follow from it. docs/extending.md says how to add one.
 */
public interface TargetKind extends Kind {

  /** The target kinds on the class path. */
  static Kinds<TargetKind> installed() {
    return Kinds.installed(TargetKind.class, "target kind", "target.kind");
  }

  /** The kind's name: {@code target.kind} in requests and configuration. */
  @Override
  String name();

  /**
   * The option that gives the target's location; its CLI flag chooses this kind ({@code --volume}
   * for the mailstore, {@code --target} for a server).
   */
  KindOption location();

  /**
   * Whether a value of the location's flag names this kind's target. Kinds may share a flag ({@code
   * --target imap://...}, {@code --provision ldap://...} beside the IMAP kind's {@code --provision
   * sql}); the value tells them apart.
   */
  default boolean takesLocation(String value) {
    return true;
  }

  /** The kind's own options. */
  default List<KindOption> options() {
    return List.of();
  }

  /** Checks what the generic checks cannot, adding what is wrong to {@code problems}. */
  default void check(TargetSpec spec, FieldProblems problems) {}

  /** The target for people, without secrets. */
  String describe(TargetSpec spec);

  /**
   * Creates or upgrades the tables the kind keeps in the bookkeeping database ({@link
   * org.mailrestore.sql.Migrations}). A runtime calls it for its default target while it migrates
   * its own tables, so that a fresh database gets both at once; {@link #open} still migrates (a
   * second call finds them done).
   */
  default void prepare(DataSource bookkeeping) {}

  /**
   * Opens the target.
   *
   * @throws IOException when it cannot be reached or is not usable (saying why)
   */
  MailTarget open(TargetSpec spec, TargetContext context) throws SQLException, IOException;
}
