package org.mailrestore.restore.run;

import java.io.IOException;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceChangedException;

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
    Throttle throttle,
    String sourceIdentity)
    implements AutoCloseable {

  public PointInTime pointInTime() {
    return request.pointInTime();
  }

  /**
   * Checks that the source is still the one the operation started with: asked as an account ends
   * and as the operation ends, so that a source removed or replaced mid-run is not taken for an
   * empty one.
   *
   * @throws SourceChangedException naming what happened
   */
  public void confirmSource() throws SourceChangedException {
    confirm(source, sourceIdentity);
  }

  /** Checks that {@code source} is the one recorded as {@code recorded}. */
  static void confirm(MailSource source, String recorded) throws SourceChangedException {
    String now;
    try {
      now = source.identity();
    } catch (IOException e) {
      throw new SourceChangedException(
          source.describe()
              + " cannot be read any more ("
              + e.getMessage()
              + "): it was removed or became unreadable while the operation read it",
          e);
    }
    if (!OperationStore.recordable(now).equals(recorded)) {
      throw new SourceChangedException(
          source.describe()
              + " is not the source this operation started with: it was replaced (was "
              + recorded
              + ", now "
              + now
              + "); what was read of it cannot be known complete");
    }
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
