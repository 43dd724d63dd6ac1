package org.mailrestore.restore;

import java.io.IOException;
import org.mailrestore.backup.BackupReader;

/** Opens the backup a request names. */
@FunctionalInterface
public interface BackupOpener {

  /**
   * @throws org.mailrestore.source.SourceFormatException when it is not a readable backup
   * @throws IOException when it cannot be reached
   */
  BackupReader open(BackupSource source) throws IOException;
}
