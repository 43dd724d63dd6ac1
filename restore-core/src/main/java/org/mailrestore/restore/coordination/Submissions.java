package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import org.mailrestore.restore.IdempotencyKeyReusedException;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Submission;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.run.SourceOpener;

/**
 * New operations: recorded queued, once per idempotency key. A key used again for the same request
 * gives the operation it created; for another request, an error.
 */
final class Submissions {

  /** MariaDB's error code for a duplicate unique key. */
  private static final int DUPLICATE_KEY = 1062;

  private final OperationStore operations;
  private final SourceOpener sources;

  Submissions(OperationStore operations, SourceOpener sources) {
    this.operations = operations;
    this.sources = sources;
  }

  Submission submit(RestoreRequest request, String idempotencyKey) throws SQLException {
    if (idempotencyKey != null) {
      Optional<Submission> replay = replay(request, idempotencyKey);
      if (replay.isPresent()) {
        return replay.get();
      }
    }
    String id = UUID.randomUUID().toString();
    try {
      operations.create(id, request, sources.describe(request.source()), idempotencyKey);
    } catch (SQLException e) {
      // Two submissions with one key at the same moment: the other one won.
      if (idempotencyKey != null && e.getErrorCode() == DUPLICATE_KEY) {
        return replay(request, idempotencyKey).orElseThrow(() -> e);
      }
      throw e;
    }
    return new Submission(id, true);
  }

  private Optional<Submission> replay(RestoreRequest request, String key) throws SQLException {
    Optional<String> existing = operations.findByIdempotencyKey(key);
    if (existing.isEmpty()) {
      return Optional.empty();
    }
    OperationSummary earlier = operations.find(existing.get()).orElseThrow();
    if (!request.equals(earlier.request())) {
      throw new IdempotencyKeyReusedException(
          "the idempotency key \""
              + key
              + "\" was used for another request (operation "
              + earlier.id()
              + "); use a new key for a new restore");
    }
    return Optional.of(new Submission(earlier.id(), false));
  }
}
