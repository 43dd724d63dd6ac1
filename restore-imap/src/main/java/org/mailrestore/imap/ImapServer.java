package org.mailrestore.imap;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The server a target writes to: where it is, how the restore logs in as each user, and the bound
 * on connections over every account and operation (a server limits connections per user and per
 * address; going over makes it refuse logins).
 */
final class ImapServer {

  /** A session kept idle longer than this is asked whether it still answers before it is used. */
  static final long CHECK_AFTER = TimeUnit.SECONDS.toNanos(5);

  private final ImapEndpoint endpoint;
  private final AdminLogin login;
  private final Semaphore connections;
  private final int perAccount;
  private final MailboxIds mailboxIds = new MailboxIds();
  private final IdleSessions idle;
  private volatile boolean warnedNoUidplus;

  ImapServer(ImapEndpoint endpoint, AdminLogin login, int maxConnections, int perAccount) {
    this(endpoint, login, maxConnections, perAccount, System::nanoTime);
  }

  /** With the clock the idle sessions are timed by (a test's own). */
  ImapServer(
      ImapEndpoint endpoint,
      AdminLogin login,
      int maxConnections,
      int perAccount,
      LongSupplier clock) {
    this.endpoint = endpoint;
    this.login = login;
    this.connections = new Semaphore(maxConnections, true);
    this.perAccount = perAccount;
    this.idle = new IdleSessions(perAccount, maxConnections, clock);
  }

  String describe() {
    return (endpoint.implicitTls() ? "imaps://" : "imap://")
        + endpoint.host()
        + ":"
        + endpoint.port();
  }

  int perAccount() {
    return perAccount;
  }

  /**
   * A session logged in as {@code user}: one kept idle by an earlier step ({@link #keep}), or a new
   * one. It holds one of the server's connections until closed or kept.
   */
  UserSession session(String user) throws IOException {
    IdleSessions.Kept kept = idle.take(user);
    if (kept == null) {
      return open(user);
    }
    // A session that waited a while may have been dropped by the server: asked first, not failed.
    if (kept.idleNanos() < CHECK_AFTER || kept.session().alive()) {
      return kept.session();
    }
    kept.session().close();
    return open(user);
  }

  /** Keeps a session for the next step acting as its user (a broken one is closed). */
  void keep(UserSession session) {
    idle.keep(session);
  }

  /** Closes the user's idle sessions: its restore is done. */
  void closeIdle(String user) {
    idle.closeAll(user);
  }

  /** Closes every idle session. */
  void closeIdle() {
    idle.closeAll();
  }

  /** A new session logged in as {@code user}; it holds one of the server's connections. */
  UserSession open(String user) throws IOException {
    try {
      // An idle session holds a connection nobody uses: close the oldest rather than wait.
      while (!connections.tryAcquire()) {
        if (!idle.closeOldest()) {
          connections.acquire();
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a connection to " + describe(), e);
    }
    ImapSession session = null;
    try {
      session = ImapSession.open(endpoint);
      session.loginAs(login, user);
      return new UserSession(session, user, mailboxIds, connections::release);
    } catch (IOException | RuntimeException e) {
      if (session != null) {
        session.close();
      }
      connections.release();
      throw e;
    }
  }

  /** Logs in and out as the admin alone: that the server answers and takes the credentials. */
  void check() throws IOException {
    try (ImapSession session = ImapSession.open(endpoint)) {
      if (!session.has("IMAP4REV1") && !session.has("IMAP4REV2")) {
        throw new IOException(describe() + " does not announce IMAP4rev1");
      }
    }
  }

  /** Whether the warning about a server without UIDPLUS is still to be given (once). */
  boolean firstWithoutUidplus() {
    if (warnedNoUidplus) {
      return false;
    }
    warnedNoUidplus = true;
    return true;
  }
}
