package org.mailrestore.imap;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Sessions logged in and idle, kept for the next step that acts as the same user: phase 1 checks an
 * account by logging in as it, and phase 2 logs in as it again moments later. A login costs the
 * server more than the messages of a small account (Dovecot starts a process for each: 25-40 ms of
 * its CPU here, docs/benchmarks.md).
 *
 * <p>Bounded three ways: at most {@code perUser} sessions of one user and {@code capacity} in all,
 * the oldest closed first; none kept longer than {@link #MAX_IDLE}, since a server or a firewall
 * may drop an idle connection. Each holds one of the server's connections, so a login that finds
 * none free closes the oldest idle session first ({@link #closeOldest}).
 */
final class IdleSessions {

  /** Longest a session waits here: well under any server's idle limit (RFC 9051: 30 minutes). */
  static final long MAX_IDLE = TimeUnit.SECONDS.toNanos(30);

  private record Idle(UserSession session, long since) {}

  /** A session taken, and how long it waited here. */
  record Kept(UserSession session, long idleNanos) {}

  private final int perUser;
  private final int capacity;
  private final LongSupplier clock;
  private final Deque<Idle> idle = new ArrayDeque<>(); // oldest first

  IdleSessions(int perUser, int capacity, LongSupplier clock) {
    this.perUser = perUser;
    this.capacity = capacity;
    this.clock = clock;
  }

  /** The user's most recently kept session, or null. */
  Kept take(String user) {
    List<UserSession> stale = new ArrayList<>();
    Kept found = null;
    synchronized (idle) {
      dropStale(stale);
      for (Iterator<Idle> it = idle.descendingIterator(); it.hasNext(); ) {
        Idle i = it.next();
        if (i.session().user().equals(user)) {
          it.remove();
          found = new Kept(i.session(), clock.getAsLong() - i.since());
          break;
        }
      }
    }
    stale.forEach(UserSession::close);
    return found;
  }

  /** Keeps a session for its user's next step; a broken one is closed. */
  void keep(UserSession session) {
    if (session.isBroken()) {
      session.close();
      return;
    }
    List<UserSession> closing = new ArrayList<>();
    synchronized (idle) {
      dropStale(closing);
      int sameUser = 0;
      for (Idle i : idle) {
        if (i.session().user().equals(session.user())) {
          sameUser++;
        }
      }
      if (sameUser >= perUser) {
        closing.add(session);
      } else {
        idle.addLast(new Idle(session, clock.getAsLong()));
        while (idle.size() > capacity) {
          closing.add(idle.removeFirst().session());
        }
      }
    }
    closing.forEach(UserSession::close);
  }

  /** Closes the oldest idle session, giving its connection back; false when none is idle. */
  boolean closeOldest() {
    Idle oldest;
    synchronized (idle) {
      oldest = idle.pollFirst();
    }
    if (oldest == null) {
      return false;
    }
    oldest.session().close();
    return true;
  }

  /** Closes the user's idle sessions (its restore is done), and any kept too long. */
  void closeAll(String user) {
    List<UserSession> closing = new ArrayList<>();
    synchronized (idle) {
      dropStale(closing);
      for (Iterator<Idle> it = idle.iterator(); it.hasNext(); ) {
        Idle i = it.next();
        if (i.session().user().equals(user)) {
          it.remove();
          closing.add(i.session());
        }
      }
    }
    closing.forEach(UserSession::close);
  }

  /** Closes every idle session. */
  void closeAll() {
    while (closeOldest()) {
      // each call closes one
    }
  }

  int size() {
    synchronized (idle) {
      return idle.size();
    }
  }

  private void dropStale(List<UserSession> closing) {
    long now = clock.getAsLong();
    while (!idle.isEmpty() && now - idle.peekFirst().since() > MAX_IDLE) {
      closing.add(idle.removeFirst().session());
    }
  }
}
