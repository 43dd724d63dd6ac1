package org.mailrestore.restore.run;

import java.io.IOException;
import java.sql.SQLException;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.source.MailSource;

/**
 * The one place an operation's run is made: its source opened for its selection, its targets
 * opened, its pace read from the bookkeeping. Whoever coordinates an operation and whoever helps
 * with it run the same thing.
 */
public final class OperationRuns {

  private final SourceOpener sources;
  private final TargetOpener targets;
  private final Bookkeeping books;

  public OperationRuns(SourceOpener sources, TargetOpener targets, Bookkeeping books) {
    this.sources = sources;
    this.targets = targets;
    this.books = books;
  }

  /**
   * Opens the run of an operation whose request could be read; close it to close its source.
   *
   * @throws org.mailrestore.source.SourceFormatException when the source is not readable
   * @throws IOException when the source or a target cannot be reached
   * @throws org.mailrestore.source.SourceChangedException when the source is not the one the
   *     operation started with
   */
  public OperationRun open(OperationSummary operation, CancelSignal cancel)
      throws SQLException, IOException {
    RestoreRequest request = operation.request();
    if (request == null) {
      throw new IllegalStateException(
          "operation " + operation.id() + ": its stored request cannot be read; it cannot run");
    }
    MailSource source = sources.open(request.source(), request.selection());
    try {
      // The source as the operation first found it; a resume that finds another in its place
      // fails rather than mixing two backups.
      String identity = books.operations().recordSourceIdentity(operation.id(), source.identity());
      OperationRun.confirm(source, identity);
      return new OperationRun(
          operation.id(),
          request,
          source,
          targets.open(request.targets()),
          cancel,
          new Throttle(books.throttles(), operation.id()),
          identity);
    } catch (SQLException | IOException | RuntimeException e) {
      source.close();
      throw e;
    }
  }
}
