package org.mailrestore.restore.run;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rides out passing database failures: a restarting MariaDB, killed connections, deadlocks. The
 * restore pauses (with backoff and jitter) and goes on, up to a patience limit; other failures are
 * thrown at once.
 */
public final class DatabaseRetry {

  /** A database call. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws SQLException;
  }

  /** A database call that answers nothing. */
  @FunctionalInterface
  public interface Step {
    void run() throws SQLException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(DatabaseRetry.class);
  private static final int DEADLOCK = 1213;
  private static final int LOCK_WAIT_TIMEOUT = 1205;
  private static final int CONNECTION_KILLED = 1927;
  private static final int SERVER_SHUTDOWN = 1053;

  private final Duration patience;
  private final Runnable onRetry;

  public DatabaseRetry(Duration patience, Runnable onRetry) {
    this.patience = patience;
    this.onRetry = onRetry;
  }

  /** True for failures that a later attempt may not meet. */
  public static boolean isTransient(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientException
          || t instanceof SQLNonTransientConnectionException
          || t instanceof SQLRecoverableException) {
        return true;
      }
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        int code = sql.getErrorCode();
        if ((state != null && state.startsWith("08"))
            || code == DEADLOCK
            || code == LOCK_WAIT_TIMEOUT
            || code == CONNECTION_KILLED
            || code == SERVER_SHUTDOWN) {
          return true;
        }
      }
      if (t instanceof java.net.SocketException || t instanceof java.io.EOFException) {
        return true;
      }
    }
    return false;
  }

  /** {@link #call} for a step that answers nothing. */
  public void run(String what, Step step) throws SQLException {
    Boolean unused =
        call(
            what,
            () -> {
              step.run();
              return Boolean.TRUE;
            });
  }

  public <T> T call(String what, Call<T> call) throws SQLException {
    long deadline = System.nanoTime() + patience.toNanos();
    long backoff = 100;
    while (true) {
      try {
        return call.run();
      } catch (SQLException e) {
        if (!isTransient(e) || System.nanoTime() > deadline) {
          throw e;
        }
        onRetry.run();
        LOG.warn("{}: the database failed ({}); retrying", what, e.getMessage());
        sleep(ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1), "the database");
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
  }

  /** Sleeps; an interrupt ends it as an SQLException saying what was awaited. */
  public static void sleep(long millis, String awaited) throws SQLException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for " + awaited, e);
    }
  }

  /**
   * What a failed task threw, as an SQLException to rethrow: SQL failures as they are, unchecked
   * ones thrown from here, anything else wrapped.
   */
  public static SQLException asSql(@Nullable Throwable cause) {
    if (cause instanceof SQLException sql) {
      return sql;
    }
    if (cause instanceof RuntimeException rt) {
      throw rt;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    return new SQLException(cause);
  }
}
