package org.mailrestore.restore.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.Claim;
import org.mailrestore.restore.bookkeeping.LeaseStore;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.bookkeeping.ProvisionedOperation;
import org.mailrestore.restore.run.HeldLeases;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

class HeartbeatTest {

  @Test
  void aStoppedHeartbeatDoesNotStartAgain() {
    // The store is never reached: the first beat would come a second after the start.
    Heartbeat heartbeat =
        new Heartbeat(
            new OperationStore(null),
            new LeaseStore(null),
            "test-instance",
            3,
            Map.of(),
            new HeldLeases(3),
            new PhaseClocks(
                new OperationStore(null), new RestoreMetrics(new SimpleMeterRegistry())));
    heartbeat.start();
    assertThat(heartbeat.isBeating()).isTrue();
    heartbeat.stop();
    assertThat(heartbeat.isBeating()).isFalse();

    // An operation that ends after its engine closed asks for a beat again.
    heartbeat.start();
    assertThat(heartbeat.isBeating()).isFalse();
  }

  /**
   * Every connection of the pool is taken (clusters waiting on the locks of another instance paused
   * in its commits hold them so) for longer than a lease: the leases are renewed all the same, on
   * the heartbeat's own connection (decision 0052). On the real MariaDB.
   */
  @Test
  void leasesAreRenewedWhileThePoolIsExhausted() throws Exception {
    String operationId = UUID.randomUUID().toString();
    ExecutorService borrowers = Executors.newCachedThreadPool();
    List<Future<Connection>> borrowed = new ArrayList<>();
    try (TestDatabase database = TestMariaDb.createDatabase()) {
      Bookkeeping books =
          ProvisionedOperation.create(database.dataSource(), operationId, "beat", "alice");
      HeldLeases leases = new HeldLeases(3);
      long claimedAt = System.nanoTime();
      Claim claim = Claim.next("here");
      assertThat(books.accounts().claimNext(operationId, claim, 3)).isPresent();
      HeldLeases.Held held = leases.claimed(operationId, "src-alice", claimedAt, claim);
      Heartbeat heartbeat =
          new Heartbeat(
              books.operations(),
              books.leases(),
              "here",
              3,
              Map.of(),
              leases,
              new PhaseClocks(books.operations(), new RestoreMetrics(new SimpleMeterRegistry())));
      heartbeat.start();
      try {
        Thread.sleep(1_500); // the first beat, a second after the start, took its connection
        for (int i = 0; i < TestDatabase.POOL_SIZE; i++) {
          borrowed.add(borrowers.submit(() -> database.dataSource().getConnection()));
        }
        Thread.sleep(5_000); // past the 3 s lease, and past its 2 s deadline here

        held.check(); // throws when no beat went through since the claim
      } finally {
        heartbeat.stop();
        borrowers.shutdownNow();
        for (Future<Connection> f : borrowed) {
          if (f.isDone() && !f.isCancelled()) {
            try {
              f.get().close();
            } catch (java.util.concurrent.ExecutionException e) {
              // The one that waited for the heartbeat's connection.
            }
          }
        }
        borrowers.awaitTermination(10, TimeUnit.SECONDS);
      }
    }
  }
}
