package org.mailrestore.restore;

/** The life of a restore operation. */
public enum OperationState {
  QUEUED,
  RUNNING,
  /** Finished; everything was restored (repairs may have been made, see the failure list). */
  COMPLETED,
  /** Finished; some items or accounts could not be restored (listed with reasons). */
  PARTIAL,
  /** Nothing could be restored (the backup could not be read, or every account failed). */
  FAILED,
  /** Stopped on request; resumable. */
  CANCELLED;

  public boolean isFinished() {
    return this == COMPLETED || this == PARTIAL || this == FAILED || this == CANCELLED;
  }
}
