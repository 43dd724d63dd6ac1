package org.mailrestore.imap;

import java.io.IOException;
import java.util.concurrent.Semaphore;

/**
 * The server a target writes to: where it is, how the restore logs in as each user, and the bound
 * on connections over every account and operation (a server limits connections per user and per
 * address; going over makes it refuse logins).
 */
final class ImapServer {

  private final ImapEndpoint endpoint;
  private final AdminLogin login;
  private final Semaphore connections;
  private final int perAccount;
  private final MailboxIds mailboxIds = new MailboxIds();
  private volatile boolean warnedNoUidplus;

  ImapServer(ImapEndpoint endpoint, AdminLogin login, int maxConnections, int perAccount) {
    this.endpoint = endpoint;
    this.login = login;
    this.connections = new Semaphore(maxConnections, true);
    this.perAccount = perAccount;
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

  /** A session logged in as {@code user}; it holds one of the server's connections until closed. */
  UserSession open(String user) throws IOException {
    try {
      connections.acquire();
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
