package org.mailrestore.restore;

/**
 * Hears of operations ending (and of phase 1 ending), on the instance that coordinates them: once
 * per operation run. Notifications (a webhook, a mail) are listeners. A listener must not throw: a
 * notification that cannot be delivered never changes the operation.
 */
public interface OperationListener {

  /** Nobody listens. */
  OperationListener NONE = report -> {};

  /** The operation ended (completed, partial, failed or cancelled), with its report. */
  void ended(OperationReport report);

  /** Phase 1 (provisioning) ended; accounts exist and their mail follows. */
  default void provisioned(OperationSummary summary) {}
}
