package org.mailrestore.restore.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.EngineSchema;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * Who awaits an operation of this engine learns of its end when it ends, not at a poll: the CLI's
 * restore and the REST {@code /await} wait so. The waits below are a minute long; the tests end in
 * milliseconds only if the end wakes them.
 */
class OperationNoticesTest {

  private static final long A_MINUTE = 60_000;
  private static final Duration WELL_BEFORE_A_MINUTE = Duration.ofSeconds(20);

  private TestDatabase database;
  private OperationNotices notices;

  @BeforeEach
  void open() throws Exception {
    database = TestMariaDb.createDatabase();
    EngineSchema.migrate(database.dataSource());
    notices = new OperationNotices(new Bookkeeping(database.dataSource()));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void anEndBetweenTheMarkAndTheWaitIsNotMissed() {
    long mark = notices.endingsSoFar();
    notices.ended("op-1"); // after the waiter read the operation's state, before it waits

    assertTimeoutPreemptively(WELL_BEFORE_A_MINUTE, () -> notices.awaitEndingAfter(mark, A_MINUTE));
  }

  @Test
  void anEndWakesTheWaiter() throws Exception {
    long mark = notices.endingsSoFar();
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Void> waiter =
        CompletableFuture.runAsync(() -> {
          waiting.countDown();
          try {
            notices.awaitEndingAfter(mark, A_MINUTE);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
    waiting.await();
    notices.ended("op-1");

    waiter.get(WELL_BEFORE_A_MINUTE.toSeconds(), TimeUnit.SECONDS);
    assertThat(notices.endingsSoFar()).isEqualTo(mark + 1);
  }

  @Test
  void withoutAnEndTheWaitLastsItsTime() throws Exception {
    long mark = notices.endingsSoFar();
    long start = System.nanoTime();

    notices.awaitEndingAfter(mark, 50);

    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(50);
  }
}
