package org.mailrestore.verify;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;

class RecentDigestsTest {

  @Test
  void aDigestIsNewOnceThenKnownUntilItIsTheEldestToGo() {
    RecentDigests recent = new RecentDigests(3);
    BlobDigest a = BlobDigest.ofContent("a".getBytes(UTF_8));
    assertThat(recent.add(a)).isTrue();
    assertThat(recent.add(a)).isFalse();
    recent.add(BlobDigest.ofContent("b".getBytes(UTF_8)));
    recent.add(BlobDigest.ofContent("c".getBytes(UTF_8)));
    assertThat(recent.add(a)).as("three remembered, a among them").isFalse();
    recent.add(BlobDigest.ofContent("d".getBytes(UTF_8)));
    assertThat(recent.size()).isEqualTo(3);
    assertThat(recent.add(a)).as("a was the eldest: forgotten for d").isTrue();
  }

  /**
   * Digests that share their first 16 hex digits all want the same bucket: forgetting the eldest
   * must move the later ones of the probe back, or they would be lost (and read again) or found
   * where they are not.
   */
  @Test
  void answersAsASetOfTheLastAddedDoesWhenBucketsCollide() {
    Random random = new Random(43);
    for (int capacity : new int[] {1, 2, 5, 64}) {
      RecentDigests recent = new RecentDigests(capacity);
      ArrayDeque<BlobDigest> order = new ArrayDeque<>();
      Set<BlobDigest> model = new HashSet<>();
      BlobDigest[] pool = new BlobDigest[capacity * 3];
      for (int i = 0; i < pool.length; i++) {
        // three prefixes only: long probes, wrapping around the end of a small table
        String prefix = "%016x".formatted(random.nextInt(3) * 0x5555_5555_5555_5555L);
        StringBuilder rest = new StringBuilder();
        for (int k = 0; k < 48; k++) {
          rest.append(Character.forDigit(random.nextInt(16), 16));
        }
        pool[i] = new BlobDigest(prefix + rest);
      }
      for (int step = 0; step < 20_000; step++) {
        BlobDigest d = pool[random.nextInt(pool.length)];
        boolean expected = !model.contains(d);
        if (expected) {
          model.add(d);
          order.addLast(d);
          if (order.size() > capacity) {
            model.remove(order.removeFirst());
          }
        }
        assertThat(recent.add(d)).as("capacity %d, step %d", capacity, step).isEqualTo(expected);
        assertThat(recent.size()).isEqualTo(order.size());
      }
    }
  }
}
