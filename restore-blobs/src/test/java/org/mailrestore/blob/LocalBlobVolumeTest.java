package org.mailrestore.blob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

class LocalBlobVolumeTest {

  static Set<String> names(Path root, boolean blobsOnly) throws IOException {
    if (!Files.exists(root)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .filter(name -> !blobsOnly || !name.startsWith("."))
          .collect(Collectors.toSet());
    }
  }

  @Nested
  class Plain extends BlobVolumeContract {
    @TempDir Path root;

    @Override
    protected BlobVolume volume() {
      return new LocalBlobVolume(root.resolve("volume"));
    }

    @Override
    protected Set<String> visibleBlobNames() throws IOException {
      return names(root.resolve("volume"), true);
    }

    @Override
    protected Set<String> allStoredNames() throws IOException {
      return names(root.resolve("volume"), false);
    }
  }

  @Nested
  class Compressed extends BlobVolumeContract {
    @TempDir Path root;

    @Override
    protected BlobVolume volume() {
      return new LocalBlobVolume(root.resolve("volume"), BlobCompression.ZSTD, 4096);
    }

    @Override
    protected Set<String> visibleBlobNames() throws IOException {
      return names(root.resolve("volume"), true);
    }

    @Override
    protected Set<String> allStoredNames() throws IOException {
      return names(root.resolve("volume"), false);
    }
  }

  @org.junit.jupiter.api.Test
  void aBlobWhoseFileVanishedBeforeTheSyncFailsItSoNoRowNamesIt(@TempDir Path dir)
      throws IOException {
    LocalBlobVolume volume = new LocalBlobVolume(dir.resolve("volume"));
    byte[] kept = "kept".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] lost = "lost".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    volume.write(BlobDigest.ofContent(kept), kept.length, new java.io.ByteArrayInputStream(kept));
    StoredBlob gone =
        volume.write(
            BlobDigest.ofContent(lost), lost.length, new java.io.ByteArrayInputStream(lost));
    Files.delete(volume.root().resolve(gone.locator()));
    org.assertj.core.api.Assertions.assertThatThrownBy(volume::sync)
        .isInstanceOf(java.nio.file.NoSuchFileException.class);
  }

  @org.junit.jupiter.api.Test
  void aVolumeWhoseDirectoryCannotBeCreatedFailsItsCheck(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
    BlobVolume volume = new LocalBlobVolume(file.resolve("volume"));
    org.assertj.core.api.Assertions.assertThatThrownBy(volume::check)
        .isInstanceOf(IOException.class);
  }
}
