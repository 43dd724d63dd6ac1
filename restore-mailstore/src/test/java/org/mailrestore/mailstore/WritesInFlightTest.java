package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;

class WritesInFlightTest {

  private static final BlobDigest DIGEST =
      BlobDigest.ofContent("list mail".getBytes(StandardCharsets.US_ASCII));

  private static StoredBlob blob(String locator) {
    return new StoredBlob(DIGEST, locator, 9, 9);
  }

  @Test
  void aSecondWriteOfADigestInFlightWaitsAndTakesTheFirstsBlob() throws Exception {
    WritesInFlight flights = new WritesInFlight();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    StoredBlob first = blob("first");
    CompletableFuture<WritesInFlight.Written> one =
        CompletableFuture.supplyAsync(() -> {
          try {
            return flights.once(
                DIGEST,
                () -> {
                  started.countDown();
                  finish.await();
                  return first;
                });
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(flights.writing(DIGEST)).isTrue();
    AtomicInteger secondWrites = new AtomicInteger();
    CompletableFuture<WritesInFlight.Written> two =
        CompletableFuture.supplyAsync(() -> {
          try {
            return flights.once(
                DIGEST,
                () -> {
                  secondWrites.incrementAndGet();
                  return blob("second");
                });
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
    Thread.sleep(100);
    assertThat(two).as("waits for the first write").isNotDone();
    finish.countDown();
    assertThat(one.get(5, TimeUnit.SECONDS)).isEqualTo(new WritesInFlight.Written(first, false));
    assertThat(two.get(5, TimeUnit.SECONDS)).isEqualTo(new WritesInFlight.Written(first, true));
    assertThat(secondWrites).hasValue(0);
  }

  @Test
  void aWriteThatFailedEndsAtOnceAndTheNextWritesItself() throws Exception {
    WritesInFlight flights = new WritesInFlight();
    assertThatThrownBy(() ->
            flights.once(
                DIGEST,
                () -> {
                  throw new IOException("disk full");
                }))
        .hasMessage("disk full");
    assertThat(flights.writing(DIGEST)).isFalse();
    StoredBlob again = blob("again");
    assertThat(flights.once(DIGEST, () -> again))
        .isEqualTo(new WritesInFlight.Written(again, false));
  }

  @Test
  void aBlobWrittenIsSharedUntilItIsRecordedAndEveryClusterThatAskedBeforeHasClosed()
      throws Exception {
    WritesInFlight flights = new WritesInFlight();
    StoredBlob first = blob("first");
    flights.once(DIGEST, () -> first);
    assertThat(flights.once(DIGEST, () -> blob("second")))
        .as("written, not recorded yet: its cluster may still be reading")
        .isEqualTo(new WritesInFlight.Written(first, true));

    long asked = flights.open(); // a cluster asked the database before the blob was recorded
    flights.recorded(List.of(blob("another write's blob of the same digest")));
    flights.recorded(List.of(first));
    assertThat(flights.once(DIGEST, () -> blob("third")))
        .as("the cluster that asked before may have been told no: it still finds the blob here")
        .isEqualTo(new WritesInFlight.Written(first, true));
    long after = flights.open(); // asks after: the database answers it
    flights.close(asked);
    assertThat(flights.writing(DIGEST)).isFalse();
    assertThat(flights.size()).isZero();
    flights.close(after);
  }

  @Test
  void onlyTheBlobWrittenHereEndsItsWrite() throws Exception {
    WritesInFlight flights = new WritesInFlight();
    StoredBlob first = blob("first");
    flights.once(DIGEST, () -> first);
    flights.recorded(List.of(blob("another write's blob of the same digest")));
    assertThat(flights.writing(DIGEST)).isTrue();
    flights.recorded(List.of(first));
    assertThat(flights.writing(DIGEST)).isFalse();
  }
}
