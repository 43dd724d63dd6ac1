package org.mailrestore.export;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.mailrestore.kind.Kind;
import org.mailrestore.kind.Kinds;
import org.mailrestore.source.MailSource;

/**
 * A format restored mailboxes are written out in (a Maildir tree, a backup, an archive). It reads
 * from any {@link MailSource}: a restore target read back, or another source (a conversion). One
 * implementation per format, registered in {@code
 * META-INF/services/org.mailrestore.export.ExportFormat}; the CLI's {@code export <name>} follows
 * from it.
 */
public interface ExportFormat extends Kind {

  /** The export formats on the class path. */
  static Kinds<ExportFormat> installed() {
    return Kinds.installed(ExportFormat.class, "export format", "format");
  }

  /** The format's name: the CLI's {@code export <name>}. */
  @Override
  String name();

  /** How many accounts one export holds: one (a Maildir tree) or any number. */
  default boolean singleAccount() {
    return false;
  }

  /**
   * Writes the accounts out.
   *
   * @param accountIds the accounts, by their ids in {@code source}
   * @param out a file or directory that must not exist, or an empty directory
   */
  ExportReport export(MailSource source, List<String> accountIds, Path out) throws IOException;
}
