package org.mailrestore.restore.run;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetSpec;

/**
 * The targets restores write to: the configured defaults, and those requests name. Targets are
 * opened once and shared by the operations that use them; the opener closes them. Several targets
 * are composed into one, each taking the kinds of item it carries.
 */
public interface TargetOpener {

  /**
   * The target a request names (several composed), or the default ones for an empty list.
   *
   * @throws IOException when one cannot be reached (saying why)
   */
  MailTarget open(List<TargetSpec> specs) throws SQLException, IOException;

  /** The default targets' specs (checked and completed): empty when none is configured. */
  List<TargetSpec> defaults();
}
