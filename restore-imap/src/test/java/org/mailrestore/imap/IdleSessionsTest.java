package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.testkit.DovecotServer;

/** Sessions kept idle between steps, with real logins on Dovecot. */
class IdleSessionsTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final List<UserSession> opened = new ArrayList<>();
  private final List<String> users = new ArrayList<>();
  private DovecotServer dovecot;
  private ImapServer server;

  @BeforeEach
  void openServer() throws Exception {
    dovecot = ImapContractTest.dovecot();
    String domain = "i" + UUID.randomUUID().toString().substring(0, 8) + ".example.org";
    for (String name : List.of("ann", "bea", "cid", "dan")) {
      users.add(name + "@" + domain);
      dovecot.addUser(name + "@" + domain);
    }
    server = server(dovecot, 8);
  }

  private static ImapServer server(DovecotServer dovecot, int maxConnections) {
    return server(dovecot, maxConnections, System::nanoTime);
  }

  private static ImapServer server(DovecotServer dovecot, int maxConnections, LongSupplier clock) {
    ImapEndpoint endpoint =
        new ImapEndpoint(
            "127.0.0.1", dovecot.port(), false, ImapEndpoint.StartTls.NEVER, null, 10_000, 60_000);
    return new ImapServer(
        endpoint,
        new AdminLogin(
            DovecotServer.MASTER, DovecotServer.MASTER_PASSWORD, AdminLogin.Method.SEPARATOR, "*"),
        maxConnections,
        1,
        clock);
  }

  @AfterEach
  void closeSessions() {
    opened.forEach(UserSession::close);
    server.closeIdle();
  }

  private UserSession open(String user) throws Exception {
    UserSession s = server.open(user);
    opened.add(s);
    return s;
  }

  @Test
  void aKeptSessionServesItsOwnUserOnly() throws Exception {
    IdleSessions idle = new IdleSessions(1, 4, now::get);
    UserSession ann = open(users.get(0));
    idle.keep(ann);
    assertThat(idle.take(users.get(1))).isNull();
    assertThat(idle.take(users.get(0)).session()).isSameAs(ann);
    assertThat(idle.size()).isZero();
  }

  @Test
  void aTakenSessionSaysHowLongItWaited() throws Exception {
    IdleSessions idle = new IdleSessions(1, 4, now::get);
    idle.keep(open(users.get(0)));
    now.addAndGet(1_234);
    assertThat(idle.take(users.get(0)).idleNanos()).isEqualTo(1_234);
  }

  @Test
  void aSessionThatWaitedAndWasDroppedByTheServerIsReplacedNotServed() throws Exception {
    server = server(dovecot, 8, now::get);
    UserSession ann = server.open(users.get(0));
    server.keep(ann);
    dovecot.doveadm(null, "kick", users.get(0));
    now.addAndGet(ImapServer.CHECK_AFTER + 1);
    UserSession again = server.session(users.get(0));
    opened.add(again);
    assertThat(again).isNotSameAs(ann);
    assertThat(again.ok(Command.of("LIST").string("").string("INBOX")).tagged().isOk()).isTrue();
    assertThat(ann.isClosed()).isTrue();
  }

  @Test
  void aSessionKeptTooLongIsClosedNotServed() throws Exception {
    IdleSessions idle = new IdleSessions(1, 4, now::get);
    UserSession ann = open(users.get(0));
    idle.keep(ann);
    now.addAndGet(IdleSessions.MAX_IDLE + 1);
    assertThat(idle.take(users.get(0))).isNull();
    assertThat(idle.size()).isZero();
    assertThat(ann.isClosed()).isTrue();
  }

  @Test
  void oneSessionPerUserAndTheCapacityAreKeptTheOldestClosedFirst() throws Exception {
    IdleSessions idle = new IdleSessions(1, 2, now::get);
    UserSession ann = open(users.get(0));
    UserSession annAgain = open(users.get(0));
    idle.keep(ann);
    idle.keep(annAgain);
    assertThat(annAgain.isClosed()).as("a second of the same user is closed").isTrue();
    UserSession bea = open(users.get(1));
    UserSession cid = open(users.get(2));
    idle.keep(bea);
    idle.keep(cid);
    assertThat(idle.size()).isEqualTo(2);
    assertThat(idle.take(users.get(0))).as("the oldest, closed for the capacity").isNull();
    assertThat(idle.take(users.get(1)).session()).isSameAs(bea);
    assertThat(idle.take(users.get(2)).session()).isSameAs(cid);
  }

  @Test
  void aLoginWithNoConnectionFreeClosesAnIdleSessionRatherThanWait() throws Exception {
    // Two connections at most: one idle session and one in use leave none free.
    server = server(dovecot, 2);
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          UserSession ann = server.open(users.get(0));
          server.keep(ann);
          UserSession bea = open(users.get(1));
          UserSession cid = open(users.get(2));
          assertThat(ann.isClosed()).as("the idle session gave its connection").isTrue();
          assertThat(cid.isClosed()).isFalse();
          bea.close();
          UserSession annAgain = server.session(users.get(0));
          opened.add(annAgain);
          assertThat(annAgain).isNotSameAs(ann);
        });
  }
}
