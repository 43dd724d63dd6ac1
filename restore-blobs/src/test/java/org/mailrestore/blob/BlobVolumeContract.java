package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BlobVolume} must do. An implementation's test extends this class and supplies a
 * fresh, empty volume per test.
 */
public abstract class BlobVolumeContract {

  /** A fresh, empty volume. Called once per test. */
  protected abstract BlobVolume volume() throws IOException;

  /**
   * The names of every complete blob visible in the volume's storage (file names or object keys
   * that end in a digest, with or without a compression suffix). Temporary objects do not count.
   */
  protected abstract Set<String> visibleBlobNames() throws IOException;

  /** Everything in the volume's storage, temporary objects included. */
  protected abstract Set<String> allStoredNames() throws IOException;

  protected static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** Compressible text, so compressing volumes have something to compress. */
  protected static byte[] text(int size, long seed) {
    Random random = new Random(seed);
    String[] words = {"restore", "mailbox", "folder", "message", "the", "of", "and", "backup"};
    StringBuilder sb = new StringBuilder(size + 16);
    while (sb.length() < size) {
      sb.append(words[random.nextInt(words.length)]).append(random.nextInt(10) == 0 ? "\r\n" : " ");
    }
    return sb.substring(0, size).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static byte[] readAll(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }

  private static InputStream verified(byte[] bytes, BlobDigest digest) {
    return new VerifyingInputStream(
        new ByteArrayInputStream(bytes), digest, bytes.length, () -> "test");
  }

  @Test
  void writtenBlobsReadBackByteForByte() throws IOException {
    try (BlobVolume volume = volume()) {
      for (byte[] raw :
          List.of(
              new byte[0],
              randomBytes(1, 1),
              text(1700, 2),
              text(70_000, 3),
              randomBytes(5 << 20, 4))) {
        BlobDigest digest = BlobDigest.ofContent(raw);
        StoredBlob stored = volume.write(digest, raw.length, verified(raw, digest));
        volume.sync();
        assertThat(stored.digest()).isEqualTo(digest);
        assertThat(stored.rawSize()).isEqualTo(raw.length);
        assertThat(readAll(volume.open(stored))).isEqualTo(raw);
      }
    }
  }

  @Test
  void unknownSizeStillWrites() throws IOException {
    try (BlobVolume volume = volume()) {
      byte[] raw = text(20_000, 5);
      BlobDigest digest = BlobDigest.ofContent(raw);
      StoredBlob stored = volume.write(digest, -1, new ByteArrayInputStream(raw));
      volume.sync();
      assertThat(readAll(volume.open(stored))).isEqualTo(raw);
    }
  }

  @Test
  void aReachableVolumePassesItsCheck() throws IOException {
    try (BlobVolume volume = volume()) {
      volume.check();
    }
  }

  @Test
  void aWrongSizeHintStillStoresTheBytesAsTheyAre() throws IOException {
    try (BlobVolume volume = volume()) {
      for (int[] sizes : new int[][] {{20_000, 100}, {100, 20_000}, {1000, 200_000}}) {
        byte[] raw = text(sizes[1], sizes[0]);
        BlobDigest digest = BlobDigest.ofContent(raw);
        StoredBlob stored = volume.write(digest, sizes[0], new ByteArrayInputStream(raw));
        volume.sync();
        assertThat(stored.rawSize())
            .as("hint %d, size %d", sizes[0], sizes[1])
            .isEqualTo(raw.length);
        assertThat(readAll(volume.open(stored))).isEqualTo(raw);
      }
    }
  }

  @Test
  void aFailedStreamLeavesNothingVisible() throws IOException {
    try (BlobVolume volume = volume()) {
      byte[] raw = text(300_000, 6);
      BlobDigest claimed = BlobDigest.ofContent(text(300_000, 7));
      assertThatThrownBy(() -> volume.write(claimed, raw.length, verified(raw, claimed)))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.DIGEST_MISMATCH));
      volume.sync();
      assertThat(visibleBlobNames()).isEmpty();
      assertThat(allStoredNames()).noneMatch(name -> name.contains(claimed.hex()));
    }
  }

  @Test
  void writingTheSameDigestTwiceKeepsOneGoodCopy() throws IOException {
    try (BlobVolume volume = volume()) {
      byte[] raw = text(9000, 8);
      BlobDigest digest = BlobDigest.ofContent(raw);
      StoredBlob first = volume.write(digest, raw.length, verified(raw, digest));
      StoredBlob second = volume.write(digest, raw.length, verified(raw, digest));
      volume.sync();
      assertThat(readAll(volume.open(first))).isEqualTo(raw);
      assertThat(readAll(volume.open(second))).isEqualTo(raw);
    }
  }

  @Test
  void concurrentWritersDoNotInterfere() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (BlobVolume volume = volume()) {
      List<byte[]> blobs = new ArrayList<>();
      List<Future<StoredBlob>> writes = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        byte[] raw = text(4000 + i * 97, 200 + i);
        blobs.add(raw);
        BlobDigest digest = BlobDigest.ofContent(raw);
        writes.add(pool.submit(() -> volume.write(digest, raw.length, verified(raw, digest))));
      }
      List<StoredBlob> stored = new ArrayList<>();
      for (Future<StoredBlob> write : writes) {
        stored.add(write.get());
      }
      volume.sync();
      for (int i = 0; i < blobs.size(); i++) {
        assertThat(readAll(volume.open(stored.get(i)))).isEqualTo(blobs.get(i));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
