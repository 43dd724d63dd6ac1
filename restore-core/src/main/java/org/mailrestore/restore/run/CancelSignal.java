package org.mailrestore.restore.run;

import org.jspecify.annotations.Nullable;

/**
 * Tells the work of one operation on this instance to stop: no new cluster starts, clusters in
 * flight finish (commit or roll back), accounts are let go, and the operation stays resumable.
 */
public final class CancelSignal {

  /** Why work stops. */
  public enum Reason {
    /** Someone asked (API, CLI): the operation ends CANCELLED. */
    CANCELLED,
    /** The process is stopping: the operation stays RUNNING, to be resumed by the next start. */
    SHUTDOWN
  }

  private volatile @Nullable Reason reason;

  public void raise(Reason why) {
    if (reason == null) {
      reason = why;
    }
  }

  public boolean raised() {
    return reason != null;
  }

  public @Nullable Reason reason() {
    return reason;
  }
}
