package org.mailrestore.restore.coordination;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.bookkeeping.ClaimStore;
import org.mailrestore.restore.bookkeeping.ClaimStore.Conflict;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.run.DatabaseRetry;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Workers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer per account: before its phases, an operation claims every account it will write (the
 * addresses it restores into), all at once. While another unfinished operation holds one of them,
 * it waits, QUEUED, its message naming that operation; a cancel ends the wait, and an operation of
 * this engine ending ends it early. Operations on other accounts run at once.
 */
final class AccountClaims {

  private static final Logger LOG = LoggerFactory.getLogger(AccountClaims.class);
  private static final long FIRST_POLL_MILLIS = 100;
  private static final long LAST_POLL_MILLIS = 2_000;

  private final ClaimStore claims;
  private final OperationStore operations;
  private final DatabaseRetry db;
  private final OperationNotices notices;

  AccountClaims(
      ClaimStore claims, OperationStore operations, DatabaseRetry db, OperationNotices notices) {
    this.claims = claims;
    this.operations = operations;
    this.db = db;
    this.notices = notices;
  }

  /** Claims the run's accounts, waiting for them; false when cancelled or stopped meanwhile. */
  boolean await(OperationRun run, Workers workers) throws SQLException {
    Set<String> wanted = targetNames(run, workers);
    long poll = FIRST_POLL_MILLIS;
    String shown = null;
    while (!run.cancel().raised()) {
      Optional<Conflict> conflict =
          db.call("claiming accounts", () -> claims.claim(run.id(), wanted));
      if (conflict.isEmpty()) {
        if (shown != null) {
          LOG.info("operation {}: its accounts are free; starting", run.id());
        }
        return true;
      }
      String why = waitingMessage(conflict.get());
      if (!why.equals(shown)) {
        LOG.info("operation {}: {}", run.id(), why);
        db.run("showing the wait", () -> operations.waiting(run.id(), why));
        shown = why;
      }
      notices.awaitEnding(poll, "accounts another operation restores");
      poll = Math.min(poll * 2, LAST_POLL_MILLIS);
    }
    return false;
  }

  static String waitingMessage(Conflict c) {
    return "waiting for operation "
        + c.operationId()
        + ", which is restoring "
        + c.accountName()
        + (c.others() > 0 ? " (and " + c.others() + " more of this operation's accounts)" : "")
        + "; one operation writes an account at a time";
  }

  /**
   * The addresses the run restores into: its selected accounts, under its policy. A source may read
   * much to describe an account (a Maildir walks the user's folders, a backup in S3 fetches a
   * file), so as many accounts are read at once as the operation restores at once.
   */
  static Set<String> targetNames(OperationRun run, Workers workers) throws SQLException {
    RestoreRequest request = run.request();
    Set<String> names = new ConcurrentSkipListSet<>();
    if (request.selection().into() != null) {
      names.add(request.selection().into());
      return names;
    }
    Queue<String> ids = new ConcurrentLinkedQueue<>(run.source().accountIds());
    workers.runAll(
        workers.concurrency().accounts(),
        () -> {
          for (String id = ids.poll(); id != null; id = ids.poll()) {
            if (run.source().account(id) instanceof Parsed.Ok<Account>(Account a, String at)
                && request.selection().includes(a)) {
              names.add(request.targetName(a.name()));
            }
          }
          return null;
        },
        "reading the source's accounts");
    return names;
  }
}
