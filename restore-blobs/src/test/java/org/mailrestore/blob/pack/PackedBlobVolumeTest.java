package org.mailrestore.blob.pack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.BlobVolumeContract;
import org.mailrestore.blob.LocalBlobVolume;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.blob.s3.S3BlobVolume;
import org.mailrestore.blob.s3.S3PackStore;
import org.mailrestore.blob.s3.S3TestAccess;

class PackedBlobVolumeTest {

  static Set<String> files(Path root, boolean blobsOnly) throws IOException {
    if (!Files.exists(root)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .filter(n -> !blobsOnly || !n.startsWith("."))
          .collect(Collectors.toSet());
    }
  }

  /**
   * Many small blobs: they share packs, read back byte for byte, and are not files of their own.
   */
  abstract static class PackedContract extends BlobVolumeContract {
    @Test
    void smallBlobsShareAFewPacksAndReadBackExactly() throws IOException {
      try (BlobVolume volume = volume()) {
        List<byte[]> blobs = new ArrayList<>();
        List<StoredBlob> stored = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          byte[] raw = i % 2 == 0 ? text(200 + i * 13, i) : randomBytes(100 + i * 7, i);
          blobs.add(raw);
          BlobDigest digest = BlobDigest.ofContent(raw);
          stored.add(volume.write(digest, raw.length, new ByteArrayInputStream(raw)));
        }
        volume.sync();
        assertThat(stored).allMatch(s -> s.locator().startsWith("pack:"));
        assertThat(stored.stream().map(s -> s.locator().split(":")[1]).distinct().count())
            .isLessThanOrEqualTo(3);
        for (int i = 0; i < blobs.size(); i++) {
          try (var in = volume.open(stored.get(i))) {
            assertThat(in.readAllBytes()).isEqualTo(blobs.get(i));
          }
        }
        assertThat(visibleBlobNames()).isEmpty();
      }
    }
  }

  @Nested
  class Local extends PackedContract {
    @TempDir Path root;

    @Override
    protected BlobVolume volume() throws IOException {
      return new PackedBlobVolume(
          new LocalPackStore(root.resolve("packs"), 1 << 20),
          new LocalBlobVolume(root.resolve("blobs")),
          PackedBlobVolume.DEFAULT_PACK_THRESHOLD,
          BlobCompression.ZSTD,
          1024);
    }

    @Override
    protected Set<String> visibleBlobNames() throws IOException {
      return files(root.resolve("blobs"), true);
    }

    @Override
    protected Set<String> allStoredNames() throws IOException {
      Set<String> all = new java.util.HashSet<>(files(root.resolve("blobs"), false));
      all.addAll(files(root.resolve("packs"), false));
      return all;
    }
  }

  @Nested
  class OnS3 extends PackedContract {
    final S3TestAccess s3 = new S3TestAccess();

    @Override
    protected BlobVolume volume() {
      return new PackedBlobVolume(
          new S3PackStore(s3.client(), s3.location("packs/"), 1 << 20),
          new S3BlobVolume(s3.client(), s3.location("blobs/")),
          PackedBlobVolume.DEFAULT_PACK_THRESHOLD,
          BlobCompression.ZSTD,
          1024);
    }

    @Override
    protected Set<String> visibleBlobNames() {
      return s3.keys("blobs/");
    }

    @Override
    protected Set<String> allStoredNames() {
      Set<String> all = new java.util.HashSet<>(s3.keys("blobs/"));
      all.addAll(s3.keys("packs/"));
      return all;
    }
  }
}
