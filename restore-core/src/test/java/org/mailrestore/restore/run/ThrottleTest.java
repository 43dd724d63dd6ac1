package org.mailrestore.restore.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.mailrestore.restore.Pace;

class ThrottleTest {

  @Test
  void withoutAPaceItemsNeverWaitAndThePaceIsReadOncePerRefreshNotPerItem() {
    AtomicInteger reads = new AtomicInteger();
    Throttle throttle =
        new Throttle(
            id -> {
              reads.incrementAndGet();
              return Pace.UNLIMITED;
            },
            "op");
    CancelSignal cancel = new CancelSignal();
    long started = System.nanoTime();
    for (int i = 0; i < 100_000; i++) {
      assertThat(throttle.acquire(1, 1000, cancel)).isTrue();
    }
    assertThat(reads.get()).as("pace lookups for 100,000 items").isLessThanOrEqualTo(2);
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(2.0);
  }

  @Test
  void aPaceSpacesItemsOutAndADatabaseErrorKeepsTheLastPace() {
    AtomicInteger reads = new AtomicInteger();
    Throttle throttle =
        new Throttle(
            id -> {
              if (reads.incrementAndGet() > 1) {
                throw new java.sql.SQLException("the database is away");
              }
              return new Pace(500.0, null);
            },
            "op");
    CancelSignal cancel = new CancelSignal();
    long started = System.nanoTime();
    for (int i = 0; i < 1000; i++) {
      assertThat(throttle.acquire(1, 0, cancel)).isTrue();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    // 1,000 items at 500/s: two seconds (nothing is saved up before the first item).
    assertThat(seconds).isBetween(1.9, 2.4);
  }
}
