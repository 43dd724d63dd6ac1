package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells who waits that an operation of this engine ended: the listener (its failures never reach
 * the engine), and the operations waiting here for accounts it held, which try again at once rather
 * than at their next poll.
 */
final class OperationNotices {
  private static final Logger LOG = LoggerFactory.getLogger(OperationNotices.class);

  private final Bookkeeping books;
  private volatile OperationListener listener = OperationListener.NONE;
  private long endings;

  OperationNotices(Bookkeeping books) {
    this.books = books;
  }

  void listener(OperationListener value) {
    listener = value == null ? OperationListener.NONE : value;
  }

  void provisioned(String operationId) {
    try {
      books.operations().find(operationId).ifPresent(listener::provisioned);
    } catch (SQLException | RuntimeException e) {
      LOG.warn("operation {}: a listener failed: {}", operationId, e.toString());
    }
  }

  void ended(String operationId) {
    synchronized (this) {
      endings++;
      notifyAll();
    }
    try {
      OperationReport.of(books, operationId).ifPresent(listener::ended);
    } catch (SQLException | RuntimeException e) {
      LOG.warn("operation {}: a listener failed: {}", operationId, e.toString());
    }
  }

  /** A mark of the operations of this engine ended so far, to wait from. */
  synchronized long endingsSoFar() {
    return endings;
  }

  /** Waits {@code millis}, or less when an operation of this engine ends meanwhile. */
  synchronized void awaitEnding(long millis, String awaited) throws SQLException {
    try {
      awaitEndingAfter(endings, millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for " + awaited, e);
    }
  }

  /**
   * Waits {@code millis}, or less when an operation of this engine has ended since {@code mark} was
   * taken ({@link #endingsSoFar}): an ending between the mark and the wait is not missed.
   */
  synchronized void awaitEndingAfter(long mark, long millis) throws InterruptedException {
    MonitorWait.until(this, () -> endings != mark, millis);
  }
}
