package org.mailrestore.restore;

import java.io.IOException;
import java.sql.SQLException;
import org.mailrestore.target.MailTarget;
import org.mailrestore.target.TargetSpec;

/**
 * The targets restores write to: the configured default, and those requests name. Targets are
 * opened once and shared by the operations that use them; the opener closes them.
 */
public interface TargetOpener {

  /**
   * The target a request names, or the default one for null.
   *
   * @throws IOException when it cannot be reached (saying why)
   */
  MailTarget open(TargetSpec spec) throws SQLException, IOException;

  /** The target for people. */
  String describe(TargetSpec spec);
}
