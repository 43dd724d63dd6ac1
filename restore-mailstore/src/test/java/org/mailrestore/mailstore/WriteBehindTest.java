package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriteBehindTest {

  @Test
  void contentAPackTakesIsLeftToItsReaderAndSoIsContentTooLargeToHold() {
    WriteBehind packed = new WriteBehind(64 * 1024);
    assertThat(packed.takes(64 * 1024)).isFalse();
    assertThat(packed.takes(64 * 1024 + 1)).isTrue();
    assertThat(packed.takes(WriteBehind.MAX_CONTENT + 1)).isFalse();
    assertThat(new WriteBehind(0).takes(1)).isTrue();
  }

  @Test
  void contentHeldForALookupNeverWaitsAndIsBoundedApartFromTheWrites() throws Exception {
    WriteBehind room = new WriteBehind(0, 100, 1);
    room.enter(100); // the writes' room is full: holding does not share it
    int half = (int) (WriteBehind.MAX_HELD_BYTES / 2);
    assertThat(room.tryHold(half)).isTrue();
    assertThat(room.tryHold(half)).isTrue();
    assertThat(room.tryHold(1)).as("full: no wait, a refusal").isFalse();
    room.unhold(half);
    assertThat(room.tryHold(half)).isTrue();
  }

  @Test
  void aWriteWaitsUntilTheBytesInFlightLeaveRoomForIt() throws Exception {
    WriteBehind room = new WriteBehind(0, 100, 10);
    room.enter(60);
    CountDownLatch entered = enterOnAnotherThread(room, 50);
    assertThat(entered.await(200, TimeUnit.MILLISECONDS)).as("110 bytes of 100").isFalse();
    room.leave(60);
    assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aWriteWaitsForAFreeSlotAndOneLargerThanTheRoomStillGoesAlone() throws Exception {
    WriteBehind room = new WriteBehind(0, 100, 1);
    room.enter(1);
    CountDownLatch entered = enterOnAnotherThread(room, 500);
    assertThat(entered.await(200, TimeUnit.MILLISECONDS)).as("one write at a time").isFalse();
    room.leave(1);
    assertThat(entered.await(5, TimeUnit.SECONDS))
        .as("an empty room takes a write of any size")
        .isTrue();
  }

  /** A write entering the room on a thread of its own: the latch opens once it is in. */
  private static CountDownLatch enterOnAnotherThread(WriteBehind room, int size) {
    CountDownLatch entered = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(() -> {
          try {
            room.enter(size);
            entered.countDown();
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        });
    return entered;
  }
}
