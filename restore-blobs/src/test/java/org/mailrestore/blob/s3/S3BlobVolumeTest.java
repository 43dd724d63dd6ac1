package org.mailrestore.blob.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.BlobVolumeContract;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.blob.VerifyingInputStream;

class S3BlobVolumeTest {

  abstract static class OnS3 extends BlobVolumeContract {
    final S3Fixture s3 = new S3Fixture();

    @Override
    protected Set<String> visibleBlobNames() {
      return s3.keys("volume/").stream().map(S3Fixture::lastSegment).collect(Collectors.toSet());
    }

    @Override
    protected Set<String> allStoredNames() {
      return visibleBlobNames();
    }
  }

  @Nested
  class Plain extends OnS3 {
    @Override
    protected BlobVolume volume() {
      return new S3BlobVolume(s3.client, s3.location("volume/"));
    }
  }

  @Nested
  class Compressed extends OnS3 {
    @Override
    protected BlobVolume volume() {
      return new S3BlobVolume(
          s3.client,
          s3.location("volume/"),
          BlobCompression.ZSTD,
          4096,
          S3BlobVolume.MIN_PART_SIZE,
          3);
    }
  }

  @Nested
  class Multipart extends OnS3 {
    @Override
    protected BlobVolume volume() {
      return new S3BlobVolume(
          s3.client,
          s3.location("volume/"),
          BlobCompression.NONE,
          0,
          S3BlobVolume.MIN_PART_SIZE,
          3);
    }

    @Test
    void aBlobOfManyPartsRoundTrips() throws Exception {
      byte[] raw = randomBytes(17 << 20, 9);
      BlobDigest digest = BlobDigest.ofContent(raw);
      try (BlobVolume volume = volume()) {
        StoredBlob stored =
            volume.write(
                digest,
                raw.length,
                new VerifyingInputStream(
                    new ByteArrayInputStream(raw), digest, raw.length, () -> "t"));
        try (var in = volume.open(stored)) {
          assertThat(in.readAllBytes()).isEqualTo(raw);
        }
      }
    }

    @Test
    void aFailedMultipartUploadIsAbortedAndInvisible() throws Exception {
      byte[] raw = randomBytes(13 << 20, 10);
      BlobDigest claimed = BlobDigest.ofContent(randomBytes(10, 11));
      try (BlobVolume volume = volume()) {
        assertThatThrownBy(() ->
                volume.write(
                    claimed,
                    raw.length,
                    new VerifyingInputStream(
                        new ByteArrayInputStream(raw), claimed, raw.length, () -> "t")))
            .isInstanceOf(BlobException.class);
      }
      assertThat(visibleBlobNames()).isEmpty();
      assertThat(s3.client.listMultipartUploads(b -> b.bucket(s3.bucket)).uploads()).isEmpty();
    }
  }

  /**
   * Uploads in flight hold at most the volume's upload memory: each waits for its share (a
   * multipart upload, its parts' buffers), and every blob still arrives whole.
   */
  @Test
  void uploadsInFlightHoldNoMoreThanTheUploadMemory() throws Exception {
    S3Fixture s3 = new S3Fixture();
    long budget = 12 << 20;
    List<byte[]> blobs = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < 8; i++) {
      blobs.add(new byte[3 << 20]);
    }
    blobs.add(new byte[11 << 20]); // multipart: two parts of 5 MiB held, 10 MiB
    blobs.forEach(random::nextBytes);
    try (S3BlobVolume volume =
            new S3BlobVolume(
                s3.client,
                s3.location("budget/"),
                BlobCompression.NONE,
                0,
                S3BlobVolume.MIN_PART_SIZE,
                1,
                budget);
        ExecutorService writers = Executors.newFixedThreadPool(blobs.size())) {
      List<Future<StoredBlob>> written = new ArrayList<>();
      for (byte[] raw : blobs) {
        BlobDigest digest = BlobDigest.ofContent(raw);
        written.add(
            writers.submit(() ->
                volume.write(
                    digest,
                    raw.length,
                    new VerifyingInputStream(
                        new ByteArrayInputStream(raw), digest, raw.length, () -> "t"))));
      }
      for (int i = 0; i < blobs.size(); i++) {
        try (var in = volume.open(written.get(i).get())) {
          assertThat(in.readAllBytes()).isEqualTo(blobs.get(i));
        }
      }
      assertThat(volume.uploadMemoryPeak())
          .as("the uploads reserved their buffers, within the budget")
          .isGreaterThanOrEqualTo(10 << 20)
          .isLessThanOrEqualTo(budget);
    }
  }

  @Test
  void aVolumeOnAMissingBucketFailsItsCheck() {
    S3Fixture s3 = new S3Fixture();
    BlobVolume volume =
        new S3BlobVolume(s3.client, new S3Location("no-such-bucket-" + System.nanoTime(), "v/"));
    assertThatThrownBy(volume::check)
        .isInstanceOf(java.io.IOException.class)
        .hasMessageContaining("does not answer");
  }
}
