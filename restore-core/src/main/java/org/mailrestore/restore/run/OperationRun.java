package org.mailrestore.restore.run;

import java.io.IOException;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.source.MailSource;

/**
 * The operation being run: what it restores, from where, into what, and whether to stop. Made by
 * {@link OperationRuns}; closing it closes its source (its targets are shared, and closed by
 * whoever opened them).
 */
public record OperationRun(
    String id,
    RestoreRequest request,
    MailSource source,
    MailTarget target,
    CancelSignal cancel,
    Throttle throttle)
    implements AutoCloseable {

  public PointInTime pointInTime() {
    return request.pointInTime();
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
