package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fence keeps the directory a file was opened in while it is used (decision 0048): the next
 * files there are read through it, and a directory swapped for a link or moved away meanwhile is
 * walked again, so what leads outside is still refused.
 */
class PathFenceTest {

  @TempDir Path dir;
  Path root;
  Path outside;
  Path blobs;
  PathFence fence;

  @BeforeEach
  void layout() throws Exception {
    root = Files.createDirectories(dir.resolve("allowed"));
    outside = Files.createDirectories(dir.resolve("outside"));
    blobs = Files.createDirectories(root.resolve("backup/blobs/ab"));
    Files.writeString(blobs.resolve("one"), "one");
    Files.writeString(blobs.resolve("two"), "two");
    Files.createDirectories(outside.resolve("ab"));
    Files.writeString(outside.resolve("ab/two"), "secret");
    fence = PathFence.around(List.of(root));
  }

  @Test
  void theNextFilesOfADirectoryAreReadThroughTheDirectoryKept() throws Exception {
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");
    assertThat(fence.recentDirectories()).isEqualTo(1);
    assertThat(read(blobs.resolve("two"))).isEqualTo("two");
    assertThat(fence.attributes(blobs.resolve("two")).isRegularFile()).isTrue();
    assertThat(fence.recentDirectories()).isEqualTo(1);
  }

  @Test
  void aKeptDirectorySwappedForALinkOutsideIsWalkedAgainAndRefused() throws Exception {
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");
    Files.move(blobs, root.resolve("moved-away"));
    Files.createSymbolicLink(blobs, outside.resolve("ab"));

    assertThatThrownBy(() -> read(blobs.resolve("two")))
        .isInstanceOf(PathFence.OutsideException.class);
    assertThatThrownBy(() -> fence.attributes(blobs.resolve("two")))
        .isInstanceOf(PathFence.OutsideException.class);
  }

  @Test
  void aDirectoryAboveSwappedForALinkOutsideIsRefusedToo() throws Exception {
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");
    Path backup = root.resolve("backup");
    Files.createDirectories(outside.resolve("other/blobs/ab"));
    Files.writeString(outside.resolve("other/blobs/ab/two"), "secret");
    Files.move(backup, outside.resolve("moved"));
    Files.createSymbolicLink(backup, outside.resolve("other"));

    // The kept directory's path now names another directory: the walk goes again and refuses.
    assertThatThrownBy(() -> read(blobs.resolve("two")))
        .isInstanceOf(PathFence.OutsideException.class);
  }

  @Test
  void aKeptDirectoryRemovedIsNotReadAsEmptyButAsMissing() throws Exception {
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");
    Files.delete(blobs.resolve("one"));
    Files.delete(blobs.resolve("two"));
    Files.delete(blobs);

    assertThatThrownBy(() -> read(blobs.resolve("two"))).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void aLinkInsideAKeptDirectoryIsStillFollowedOnlyInside() throws Exception {
    Files.writeString(root.resolve("elsewhere"), "inside");
    Files.createSymbolicLink(blobs.resolve("inside-link"), root.resolve("elsewhere"));
    Files.createSymbolicLink(blobs.resolve("outside-link"), outside.resolve("ab/two"));
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");

    assertThat(read(blobs.resolve("inside-link"))).isEqualTo("inside");
    assertThatThrownBy(() -> read(blobs.resolve("outside-link")))
        .isInstanceOf(PathFence.OutsideException.class);
  }

  @Test
  void aFileLookedAtIsOpenedWhereItWasLookedAt() throws Exception {
    PathFence.Looked looked = fence.look(blobs.resolve("two"));
    assertThat(looked.attributes().isRegularFile()).isTrue();
    assertThat(looked.attributes().size()).isEqualTo(3);
    assertThat(readLooked(looked)).isEqualTo("two");
    assertThat(fence.recentDirectories()).isEqualTo(1);

    // Looked at through the kept directory too, and a link among its entries is not followed.
    Files.createSymbolicLink(blobs.resolve("outside-link"), outside.resolve("ab/two"));
    assertThat(fence.look(blobs.resolve("outside-link")).attributes().isSymbolicLink()).isTrue();
    assertThat(PathFence.NONE.look(blobs.resolve("one")).attributes().size()).isEqualTo(3);
  }

  @Test
  void aFileSwappedForALinkOutsideBetweenItsLookAndItsOpenIsRefused() throws Exception {
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");
    PathFence.Looked looked = fence.look(blobs.resolve("two"));
    Files.delete(blobs.resolve("two"));
    Files.createSymbolicLink(blobs.resolve("two"), outside.resolve("ab/two"));

    assertThatThrownBy(() -> readLooked(looked)).isInstanceOf(PathFence.OutsideException.class);
  }

  @Test
  void aDirectorySwappedForALinkOutsideIsRefusedWhenItsFileIsLookedAt() throws Exception {
    assertThat(read(blobs.resolve("one"))).isEqualTo("one");
    Files.move(blobs, root.resolve("moved-away"));
    Files.createSymbolicLink(blobs, outside.resolve("ab"));

    assertThatThrownBy(() -> fence.look(blobs.resolve("two")))
        .isInstanceOf(PathFence.OutsideException.class);
  }

  @Test
  void keptDirectoriesAreLetGoAfterASecond() throws Exception {
    read(blobs.resolve("one"));
    assertThat(fence.recentDirectories()).isEqualTo(1);
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (fence.recentDirectories() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(fence.recentDirectories()).as("directories kept after 10 s").isZero();
    assertThat(read(blobs.resolve("two"))).isEqualTo("two"); // walked again
  }

  private String readLooked(PathFence.Looked looked) throws IOException {
    try (InputStream in = fence.open(looked)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private String read(Path file) throws IOException {
    try (InputStream in = fence.open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
