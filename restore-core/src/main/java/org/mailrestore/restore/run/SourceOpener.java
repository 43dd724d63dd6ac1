package org.mailrestore.restore.run;

import java.io.IOException;
import org.mailrestore.restore.Selection;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceSpec;

/** Opens the sources requests name (see {@link org.mailrestore.source.SourceKinds}). */
@FunctionalInterface
public interface SourceOpener {

  /**
   * Opens a source for a restore of these accounts.
   *
   * @throws org.mailrestore.source.SourceFormatException when it is not a readable source
   * @throws IOException when it cannot be reached
   */
  public MailSource open(SourceSpec spec, Selection selection) throws IOException;

  /** The source for people. */
  default String describe(SourceSpec spec) {
    return spec.kind() + " " + spec.location();
  }
}
