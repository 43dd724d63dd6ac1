package org.mailrestore.blob.pack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobException;

/**
 * What every {@link PackStore} must do. An implementation's test extends this class and supplies a
 * fresh, empty store whose packs hold at most {@code maxPackSize} bytes.
 */
public abstract class PackStoreContract {

  /** A fresh, empty store. */
  protected abstract PackStore store(int maxPackSize) throws IOException;

  private static byte[] bytes(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] read(PackStore store, PackStore.Slot slot, int length) throws IOException {
    try (InputStream in = store.read(slot.pack(), slot.offset(), length)) {
      return in.readAllBytes();
    }
  }

  @Test
  void appendedBytesReadBackExactlyOnceSynced() throws IOException {
    try (PackStore store = store(1 << 20)) {
      store.check();
      List<byte[]> written = new ArrayList<>();
      List<PackStore.Slot> slots = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        byte[] b = bytes(1 + i * 37, i);
        written.add(b);
        slots.add(store.append(b, 0, b.length));
      }
      store.sync();
      for (int i = 0; i < written.size(); i++) {
        assertThat(read(store, slots.get(i), written.get(i).length)).isEqualTo(written.get(i));
      }
    }
  }

  @Test
  void onlyThePartOfTheArrayAskedForIsAppended() throws IOException {
    try (PackStore store = store(1 << 20)) {
      byte[] b = bytes(100, 7);
      PackStore.Slot slot = store.append(b, 10, 30);
      store.sync();
      assertThat(read(store, slot, 30)).isEqualTo(java.util.Arrays.copyOfRange(b, 10, 40));
    }
  }

  @Test
  void packsRollOverAtTheirLimit() throws IOException {
    try (PackStore store = store(4096)) {
      Set<String> packs = new HashSet<>();
      List<PackStore.Slot> slots = new ArrayList<>();
      List<byte[]> written = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        byte[] b = bytes(1000, i);
        written.add(b);
        PackStore.Slot slot = store.append(b, 0, b.length);
        slots.add(slot);
        packs.add(slot.pack());
        // A pack takes no more appends once it reaches its limit (the last may cross it).
        assertThat(slot.offset()).isLessThan(4096);
      }
      store.sync();
      // 20,000 bytes in packs of at most 4,096 + one append of 1,000: four packs at least.
      assertThat(packs).hasSizeGreaterThanOrEqualTo(4);
      for (int i = 0; i < written.size(); i++) {
        assertThat(read(store, slots.get(i), 1000)).isEqualTo(written.get(i));
      }
    }
  }

  @Test
  void concurrentAppendsDoNotOverlap() throws Exception {
    try (PackStore store = store(64 * 1024)) {
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Future<PackStore.Slot>> futures = new ArrayList<>();
        List<byte[]> written = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
          byte[] b = bytes(200 + i % 300, i);
          written.add(b);
          futures.add(threads.submit(() -> store.append(b, 0, b.length)));
        }
        List<PackStore.Slot> slots = new ArrayList<>();
        for (Future<PackStore.Slot> f : futures) {
          slots.add(f.get());
        }
        store.sync();
        for (int i = 0; i < written.size(); i++) {
          assertThat(read(store, slots.get(i), written.get(i).length))
              .as("blob %d", i)
              .isEqualTo(written.get(i));
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  @Test
  void aSyncWithNothingAppendedIsHarmless() throws IOException {
    try (PackStore store = store(1 << 20)) {
      store.sync();
      store.sync();
    }
  }

  @Test
  void aMissingPackIsReportedAsMissing() throws IOException {
    try (PackStore store = store(1 << 20)) {
      assertThatThrownBy(() -> store.read("no-such-pack.pack", 0, 10).readAllBytes())
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.MISSING));
    }
  }
}
