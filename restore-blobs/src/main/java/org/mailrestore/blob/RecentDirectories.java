package org.mailrestore.blob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Directories the fence reached from a root without meeting a link, kept open for a second so that
 * the files that follow in the same directory (a backup's blobs, a Maildir folder's messages) are
 * opened relative to it instead of walking from the root again: the walk was half a service
 * restore's system time (decision 0048).
 *
 * <p>A kept directory is used only while its path still names it: the path is looked at (without
 * following a link at its end) and its device and inode must be the kept directory's. A directory
 * swapped for a link, or moved away, is therefore walked again, and the walk refuses what leads
 * outside. What a kept directory can still give is its own entries, which anyone able to move it
 * could have put there while it was inside the roots.
 */
final class RecentDirectories {

  /** How long a directory is kept open after its walk: idle services hold no directory. */
  static final long KEPT_MILLIS = 1000;

  /** Directories kept at most (each is an open file descriptor). */
  static final int MAX_KEPT = 256;

  private static final Executor CLOSER =
      CompletableFuture.delayedExecutor(KEPT_MILLIS, TimeUnit.MILLISECONDS);

  private record Kept(SecureDirectoryStream<Path> directory, Object fileKey) {}

  private final ConcurrentHashMap<Path, Kept> kept = new ConcurrentHashMap<>();

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
    try {
      Object now =
          Files.readAttributes(directory, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              .fileKey();
      return k.fileKey().equals(now) ? k.directory() : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Keeps a directory a walk reached without a link, for {@link #KEPT_MILLIS}.
   *
   * @return true when kept: it is then closed here, not by the caller
   */
  boolean keep(Path directory, SecureDirectoryStream<Path> opened) {
    if (kept.size() >= MAX_KEPT || kept.containsKey(directory)) {
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
    Kept k = new Kept(opened, fileKey);
    if (kept.putIfAbsent(directory, k) != null) {
      return false;
    }
    CLOSER.execute(() -> {
      kept.remove(directory, k);
      try {
        opened.close();
      } catch (IOException e) {
        // a directory only read: nothing was lost
      }
    });
    return true;
  }

  /** How many directories are kept now (for tests). */
  int size() {
    return kept.size();
  }
}
