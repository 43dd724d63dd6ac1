package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What every {@link BlobSource} must do. An implementation's test extends this class and says how
 * to place blobs where its source reads them.
 */
public abstract class BlobSourceContract {

  /** Stores {@code stored} under the name of {@code digest} with the given compression suffix. */
  protected abstract void place(BlobDigest digest, BlobCompression compression, byte[] stored)
      throws IOException;

  /** The source under test, reading what {@link #place} stored. */
  protected abstract BlobSource source() throws IOException;

  protected static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  protected static byte[] compressed(BlobCompression compression, byte[] raw) throws IOException {
    var buffer = new java.io.ByteArrayOutputStream();
    try (var out = compression.compress(buffer)) {
      out.write(raw);
    }
    return buffer.toByteArray();
  }

  private static byte[] readAll(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @EnumSource(BlobCompression.class)
  void readsRawBytesWhateverTheCompression(BlobCompression compression) throws IOException {
    for (int size : new int[] {0, 1, 1700, 3 * 1024 * 1024 + 17}) {
      byte[] raw = randomBytes(size, size);
      BlobDigest digest = BlobDigest.ofContent(raw);
      place(digest, compression, compressed(compression, raw));
      try (BlobSource source = source()) {
        assertThat(readAll(source.open(digest))).isEqualTo(raw);
        assertThat(readAll(source.openVerified(digest, size))).isEqualTo(raw);
      }
    }
  }

  @Test
  void missingBlobFailsWithReasonAndName() throws IOException {
    BlobDigest digest =
        BlobDigest.ofContent("never stored".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    try (BlobSource source = source()) {
      assertThatThrownBy(() -> source.open(digest))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.MISSING))
          .hasMessageContaining(digest.hex());
    }
  }

  @Test
  void verificationDetectsBytesThatDoNotMatchTheirName() throws IOException {
    byte[] raw = randomBytes(5000, 1);
    BlobDigest digest = BlobDigest.ofContent(raw);
    byte[] tampered = raw.clone();
    tampered[4000] ^= 1;
    place(digest, BlobCompression.NONE, tampered);
    try (BlobSource source = source()) {
      assertThatThrownBy(() -> readAll(source.openVerified(digest, raw.length)))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.DIGEST_MISMATCH))
          .hasMessageContaining(digest.hex());
    }
  }

  @Test
  void verificationDetectsASizeOtherThanDeclared() throws IOException {
    byte[] raw = randomBytes(1024, 2);
    BlobDigest digest = BlobDigest.ofContent(raw);
    place(digest, BlobCompression.NONE, raw);
    try (BlobSource source = source()) {
      assertThatThrownBy(() -> readAll(source.openVerified(digest, 10 * 1024 * 1024)))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.SIZE_MISMATCH))
          .hasMessageContaining("1024");
      assertThatThrownBy(() -> readAll(source.openVerified(digest, 100)))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.SIZE_MISMATCH));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = BlobCompression.class,
      names = {"GZIP", "ZSTD"})
  void brokenCompressedStreamFailsAsCorrupt(BlobCompression compression) throws IOException {
    byte[] raw = randomBytes(200_000, 3);
    BlobDigest digest = BlobDigest.ofContent(raw);
    byte[] stored = compressed(compression, raw);
    byte[] truncated = java.util.Arrays.copyOf(stored, stored.length / 2);
    place(digest, compression, truncated);
    try (BlobSource source = source()) {
      assertThatThrownBy(() -> readAll(source.openVerified(digest, raw.length)))
          .isInstanceOfSatisfying(
              BlobException.class,
              e ->
                  assertThat(e.reason())
                      .isIn(
                          BlobException.Reason.CORRUPT_COMPRESSION,
                          BlobException.Reason.SIZE_MISMATCH));
    }
  }

  @Test
  void servesConcurrentReaders() throws Exception {
    List<byte[]> blobs = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      byte[] raw = randomBytes(10_000 + i, 100 + i);
      blobs.add(raw);
      place(BlobDigest.ofContent(raw), BlobCompression.NONE, raw);
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (BlobSource source = source()) {
      List<Future<byte[]>> reads = new ArrayList<>();
      for (byte[] raw : blobs) {
        reads.add(
            pool.submit(() -> readAll(source.openVerified(BlobDigest.ofContent(raw), raw.length))));
      }
      for (int i = 0; i < blobs.size(); i++) {
        assertThat(reads.get(i).get()).isEqualTo(blobs.get(i));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
