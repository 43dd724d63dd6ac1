package org.mailrestore.blob;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blob contracts over the stacks restores really use ({@link BlobStacks}: metered, retried,
 * bounded), not only over the bare implementations: a decorator must not change what a source or a
 * volume does.
 */
class DecoratedStacksTest {

  @Nested
  class Source extends BlobSourceContract {
    @TempDir Path directory;

    @Override
    protected void place(BlobDigest digest, BlobCompression compression, byte[] stored)
        throws IOException {
      Path file = directory.resolve(BlobLayout.relativeName(digest, compression));
      Files.createDirectories(file.getParent());
      Files.write(file, stored);
    }

    @Override
    protected BlobSource source() {
      return BlobStacks.source(
          new LocalBlobSource(directory),
          "local",
          new StorageLimits(4, 4, RetryPolicy.DEFAULT, StorageLimits.DEFAULT_MAX_ITEM_BYTES),
          new SimpleMeterRegistry());
    }
  }

  @Nested
  class Volume extends BlobVolumeContract {
    @TempDir Path root;

    @Override
    protected BlobVolume volume() {
      return BlobStacks.volume(
          new LocalBlobVolume(root.resolve("volume")),
          "local",
          new StorageLimits(4, 4, RetryPolicy.DEFAULT, StorageLimits.DEFAULT_MAX_ITEM_BYTES),
          new SimpleMeterRegistry());
    }

    @Override
    protected Set<String> visibleBlobNames() throws IOException {
      return LocalBlobVolumeTest.names(root.resolve("volume"), true);
    }

    @Override
    protected Set<String> allStoredNames() throws IOException {
      return LocalBlobVolumeTest.names(root.resolve("volume"), false);
    }
  }
}
