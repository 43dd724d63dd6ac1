package org.mailrestore.blob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Directories the fence reached from a root without meeting a link, kept open while they are used
 * so that the files that follow in the same directory (a backup's blobs, a Maildir folder's
 * messages) are opened relative to it instead of walking from the root again: the walk was half a
 * service restore's system time (decision 0048).
 *
 * <p>A kept directory is used only while its path still names it: the path is looked at (without
 * following a link at its end) and its device and inode must be the kept directory's. A directory
 * swapped for a link, or moved away, is therefore walked again, and the walk refuses what leads
 * outside. What a kept directory can still give is its own entries, which anyone able to move it
 * could have put there while it was inside the roots.
 *
 * <p>A directory is let go one to two seconds after its last use (idle services hold none open), at
 * the latest ten seconds after its walk (then walked again), and, when {@link #MAX_KEPT} are kept,
 * the one used least recently makes room for the next: a Maildir tree's scan meets hundreds of
 * folders at once, and a cache that refused newcomers when full walked every message of the folders
 * read after that scan.
 */
final class RecentDirectories {

  /** Let go after this long unused. */
  static final long IDLE_MILLIS = 1000;

  /** Walked again after this long, used or not. */
  static final long MAX_AGE_MILLIS = 10_000;

  /** Directories kept at most (each is an open file descriptor). */
  static final int MAX_KEPT = 256;

  private static final class Kept {
    final SecureDirectoryStream<Path> directory;
    final Object fileKey;
    final long walkedAt;
    volatile long usedAt;

    Kept(SecureDirectoryStream<Path> directory, Object fileKey, long now) {
      this.directory = directory;
      this.fileKey = fileKey;
      this.walkedAt = now;
      this.usedAt = now;
    }
  }

  private final ConcurrentHashMap<Path, Kept> kept = new ConcurrentHashMap<>();
  private final AtomicBoolean sweepPending = new AtomicBoolean();
  private final long idleNanos;
  private final long maxAgeNanos;
  private final int maxKept;
  private final Executor sweeper;

  RecentDirectories() {
    this(IDLE_MILLIS, MAX_AGE_MILLIS, MAX_KEPT);
  }

  RecentDirectories(long idleMillis, long maxAgeMillis, int maxKept) {
    this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
    this.maxAgeNanos = TimeUnit.MILLISECONDS.toNanos(maxAgeMillis);
    this.maxKept = maxKept;
    this.sweeper = CompletableFuture.delayedExecutor(idleMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * The kept directory at this absolute, normalized path, when there is one and the path still
   * names it; null otherwise. It may be closed at any moment: a use that fails with {@link
   * java.nio.file.ClosedDirectoryStreamException} walks instead.
   */
  SecureDirectoryStream<Path> get(Path directory) {
    Kept k = kept.get(directory);
    if (k == null) {
      return null;
    }
    long now = System.nanoTime();
    if (now - k.walkedAt > maxAgeNanos) {
      letGo(directory, k);
      return null;
    }
    try {
      Object current =
          Files.readAttributes(directory, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              .fileKey();
      if (!k.fileKey.equals(current)) {
        return null;
      }
    } catch (IOException e) {
      return null;
    }
    k.usedAt = now;
    return k.directory;
  }

  /**
   * Keeps a directory a walk reached without a link.
   *
   * @return true when kept: it is then closed here, not by the caller
   */
  boolean keep(Path directory, SecureDirectoryStream<Path> opened) {
    if (kept.containsKey(directory)) {
      return false;
    }
    Object fileKey;
    try {
      fileKey =
          opened.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
    } catch (IOException e) {
      return false;
    }
    if (fileKey == null) {
      return false; // a file system that cannot tell one directory from another
    }
    if (kept.size() >= maxKept) {
      letGoLeastRecentlyUsed();
    }
    if (kept.putIfAbsent(directory, new Kept(opened, fileKey, System.nanoTime())) != null) {
      return false;
    }
    sweepLater();
    return true;
  }

  /** How many directories are kept now (for tests). */
  int size() {
    return kept.size();
  }

  private void letGoLeastRecentlyUsed() {
    Map.Entry<Path, Kept> eldest = null;
    for (Map.Entry<Path, Kept> e : kept.entrySet()) {
      if (eldest == null || e.getValue().usedAt - eldest.getValue().usedAt < 0) {
        eldest = e;
      }
    }
    if (eldest != null) {
      letGo(eldest.getKey(), eldest.getValue());
    }
  }

  private void sweepLater() {
    if (sweepPending.compareAndSet(false, true)) {
      sweeper.execute(this::sweep);
    }
  }

  /** Lets go what was not used for a second; comes back while anything is kept. */
  private void sweep() {
    long now = System.nanoTime();
    kept.forEach((directory, k) -> {
      if (now - k.usedAt >= idleNanos || now - k.walkedAt > maxAgeNanos) {
        letGo(directory, k);
      }
    });
    sweepPending.set(false);
    if (!kept.isEmpty()) {
      sweepLater();
    }
  }

  private void letGo(Path directory, Kept k) {
    if (kept.remove(directory, k)) {
      try {
        // A use in progress holds the stream's own lock: close waits for it, and a later use
        // fails with ClosedDirectoryStreamException and walks.
        k.directory.close();
      } catch (IOException e) {
        // a directory only read: nothing was lost
      }
    }
  }
}
