package org.mailrestore.mailstore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.PathFence;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.coordination.RestoreEngine;

/** Restores into a packed local volume, and what the volume holds on disk: the dedup tests'. */
final class PackedVolumes {

  private PackedVolumes() {}

  /** A fixture of its own database, restoring into a packed local volume at {@code volume}. */
  static RestoreFixture fixture(Path volume) throws SQLException, IOException {
    VolumeSpec packed =
        new VolumeSpec(
            "default",
            VolumeSpec.Kind.PACKED_LOCAL,
            volume.toString(),
            BlobCompression.NONE,
            0,
            0,
            null);
    return new RestoreFixture(
        MailstoreKind.of(packed), false, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE);
  }

  /** A restore into a fixture's engine. */
  @FunctionalInterface
  interface Restore {
    void into(RestoreEngine engine) throws Exception;
  }

  /**
   * The bytes a new packed volume at {@code volume} holds after one restore (one copy of each
   * blob); the volume is deleted after, for the restore to compare with.
   */
  static long bytesOfOneRestore(Path volume, Restore restore) throws Exception {
    long bytes;
    try (RestoreFixture f = fixture(volume)) {
      restore.into(f.engine);
      bytes = bytesUnder(volume);
    }
    delete(volume);
    return bytes;
  }

  /** The bytes of every file under {@code root}: what a second copy of a blob would grow. */
  static long bytesUnder(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  /** Deletes {@code root} and everything under it. */
  static void delete(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
