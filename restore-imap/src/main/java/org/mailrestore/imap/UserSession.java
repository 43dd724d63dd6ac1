package org.mailrestore.imap;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.mailrestore.destination.Lease;

/** A session logged in as one user, giving its connection back to the server's bound on close. */
final class UserSession implements Closeable {

  private final ImapSession session;
  private final String user;
  private final MailboxIds mailboxIds;
  private final Runnable release;
  private boolean closed;

  UserSession(ImapSession session, String user, MailboxIds mailboxIds, Runnable release) {
    this.session = session;
    this.user = user;
    this.mailboxIds = mailboxIds;
    this.release = release;
  }

  String user() {
    return user;
  }

  /** The ids of the server's folders this restore has seen, over every account. */
  MailboxIds mailboxIds() {
    return mailboxIds;
  }

  boolean has(String capability) {
    return session.has(capability);
  }

  synchronized boolean isClosed() {
    return closed;
  }

  boolean isBroken() {
    return session.isBroken();
  }

  /** Whether the session still answers ({@code NOOP}). */
  boolean alive() {
    return session.alive();
  }

  ImapSession.Result ok(Command command) throws IOException {
    return session.ok(command);
  }

  ImapSession.Result run(Command command) throws IOException {
    return session.run(command);
  }

  List<ImapSession.Result> pipeline(List<Command> commands) throws IOException {
    return session.pipeline(commands);
  }

  List<ImapSession.Result> pipeline(List<Command> commands, Lease lease) throws IOException {
    return session.pipeline(commands, lease);
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      session.close();
      release.run();
    }
  }
}
