package org.mailrestore.restore.run;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.restore.Phase;

/**
 * Reports, once per operation and kind, what the target cannot hold (lists on an IMAP server): a
 * warning naming what was left out, not one line per item.
 */
public final class NotCarried {

  private final String operationId;
  private final Records records;
  private final Phase phase;
  private final Set<String> reported = new HashSet<>();

  public NotCarried(String operationId, Records records, Phase phase) {
    this.operationId = operationId;
    this.records = records;
    this.phase = phase;
  }

  /** Reports that the target holds no {@code what}, the first time only. */
  public void once(String what, String location) throws SQLException {
    once(what, location, "the target holds no " + what + "; they were left out");
  }

  /** Reports what was left out, in the target's words, the first time for this key only. */
  public synchronized void once(String key, String location, String detail) throws SQLException {
    if (reported.add(key)) {
      records.record(operationId, phase, FailureReason.NOT_CARRIED, "", 0, location, detail);
    }
  }
}
