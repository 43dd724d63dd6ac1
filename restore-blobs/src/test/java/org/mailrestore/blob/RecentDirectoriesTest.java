package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the fence's kept directories are let go for: room for a newer one, a second unused, or their
 * age; never while a folder is being read.
 */
class RecentDirectoriesTest {

  @TempDir Path dir;

  @Test
  void aFullCacheLetsTheLeastRecentlyUsedGoRatherThanRefusingTheNewcomer() throws Exception {
    RecentDirectories recent = new RecentDirectories(60_000, 60_000, 3);
    List<Path> dirs = new ArrayList<>();
    List<SecureDirectoryStream<Path>> opened = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Path d = Files.createDirectories(dir.resolve("d" + i));
      dirs.add(d);
      opened.add(open(d));
    }
    for (int i = 0; i < 3; i++) {
      assertThat(recent.keep(dirs.get(i), opened.get(i))).isTrue();
      Thread.sleep(2);
    }
    assertThat(recent.get(dirs.get(0))).as("d0 used again: d1 is now the least recent").isNotNull();

    assertThat(recent.keep(dirs.get(3), opened.get(3))).as("the newcomer is kept").isTrue();

    assertThat(recent.size()).isEqualTo(3);
    assertThat(recent.get(dirs.get(3))).isNotNull();
    assertThat(recent.get(dirs.get(0))).isNotNull();
    assertThat(recent.get(dirs.get(1))).as("the least recently used was let go").isNull();
    assertThat(isClosed(opened.get(1))).as("and closed").isTrue();
  }

  @Test
  void aDirectoryInUseStaysAndOneUnusedIsLetGo() throws Exception {
    RecentDirectories recent = new RecentDirectories(400, 60_000, 10);
    Path used = Files.createDirectories(dir.resolve("used"));
    Path idle = Files.createDirectories(dir.resolve("idle"));
    SecureDirectoryStream<Path> usedStream = open(used);
    SecureDirectoryStream<Path> idleStream = open(idle);
    assertThat(recent.keep(used, usedStream)).isTrue();
    assertThat(recent.keep(idle, idleStream)).isTrue();
    long end = System.nanoTime() + 2_000_000_000L; // five times the idle time
    while (System.nanoTime() < end) {
      assertThat(recent.get(used)).as("a folder being read is never let go").isNotNull();
      Thread.sleep(50);
    }
    assertThat(recent.get(idle)).isNull();
    assertThat(isClosed(idleStream)).isTrue();
    assertThat(isClosed(usedStream)).isFalse();
  }

  @Test
  void aDirectoryIsWalkedAgainPastItsAgeEvenInUse() throws Exception {
    RecentDirectories recent = new RecentDirectories(60_000, 300, 10);
    Path d = Files.createDirectories(dir.resolve("d"));
    SecureDirectoryStream<Path> stream = open(d);
    assertThat(recent.keep(d, stream)).isTrue();
    assertThat(recent.get(d)).isNotNull();
    Thread.sleep(400);
    assertThat(recent.get(d)).isNull();
    assertThat(isClosed(stream)).isTrue();
    assertThat(recent.size()).isZero();
  }

  @SuppressWarnings("unchecked")
  private static SecureDirectoryStream<Path> open(Path d) throws Exception {
    return (SecureDirectoryStream<Path>) Files.newDirectoryStream(d);
  }

  private static boolean isClosed(SecureDirectoryStream<Path> stream) {
    try {
      stream.newDirectoryStream(Path.of(".")).close();
      return false;
    } catch (ClosedDirectoryStreamException e) {
      return true;
    } catch (Exception e) {
      return false;
    }
  }
}
