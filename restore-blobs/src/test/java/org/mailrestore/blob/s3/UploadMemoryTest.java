package org.mailrestore.blob.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class UploadMemoryTest {

  @Test
  void aReservationWaitsUntilOthersReleaseWhatItNeeds() throws Exception {
    UploadMemory memory = new UploadMemory(10 << 20);
    UploadMemory.Reservation first = memory.reserve(6 << 20);
    AtomicBoolean secondHeld = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread second =
        Thread.ofVirtual()
            .start(() -> {
              try (UploadMemory.Reservation r = memory.reserve(6 << 20)) {
                secondHeld.set(true);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
              done.countDown();
            });
    assertThat(done.await(200, TimeUnit.MILLISECONDS)).as("12 MiB of 10 at once").isFalse();
    first.close();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    second.join();
    assertThat(secondHeld).isTrue();
    assertThat(memory.peakBytes()).isEqualTo(6 << 20);
  }

  @Test
  void aNeedLargerThanTheBudgetTakesAllOfItRatherThanWaitingForever() throws Exception {
    UploadMemory memory = new UploadMemory(4 << 20);
    try (UploadMemory.Reservation r = memory.reserve(40 << 20)) {
      assertThat(memory.peakBytes()).isEqualTo(4 << 20);
    }
    try (UploadMemory.Reservation again = memory.reserve(4 << 20)) {
      assertThat(memory.peakBytes()).isEqualTo(4 << 20);
    }
  }

  @Test
  void closingTwiceReleasesOnce() throws Exception {
    UploadMemory memory = new UploadMemory(2 << 20);
    UploadMemory.Reservation r = memory.reserve(2 << 20);
    r.close();
    r.close();
    try (UploadMemory.Reservation a = memory.reserve(2 << 20)) {
      assertThat(memory.peakBytes()).isEqualTo(2 << 20);
    }
  }
}
