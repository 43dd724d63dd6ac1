package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tells the listener of an engine that an operation ended; its failures never reach the engine. */
final class OperationNotices {
  private static final Logger LOG = LoggerFactory.getLogger(OperationNotices.class);

  private final Bookkeeping books;
  private volatile OperationListener listener = OperationListener.NONE;

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
    try {
      OperationReport.of(books, operationId).ifPresent(listener::ended);
    } catch (SQLException | RuntimeException e) {
      LOG.warn("operation {}: a listener failed: {}", operationId, e.toString());
    }
  }
}
