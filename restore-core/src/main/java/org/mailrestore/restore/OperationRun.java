package org.mailrestore.restore;

import org.mailrestore.mail.PointInTime;
import org.mailrestore.source.MailSource;
import org.mailrestore.target.MailTarget;

/** The operation being run: what it restores, from where, into what, and whether to stop. */
record OperationRun(
    String id,
    RestoreRequest request,
    MailSource source,
    MailTarget target,
    CancelSignal cancel,
    Throttle throttle) {

  PointInTime pointInTime() {
    return request.pointInTime();
  }
}
