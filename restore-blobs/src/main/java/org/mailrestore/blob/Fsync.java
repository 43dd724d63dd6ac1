package org.mailrestore.blob;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/** Durability on local disks. */
public final class Fsync {

  /** Files forced at once: enough for the file system to commit them together. */
  private static final int AT_ONCE = 32;

  private Fsync() {}

  /**
   * Forces the files' data to disk, {@link #AT_ONCE} at a time: one after another, each would wait
   * for its own journal commit. A file that vanished before it was forced fails the sync: rows must
   * not name it.
   */
  public static void files(List<Path> files) throws IOException {
    if (files.size() <= 1) {
      for (Path f : files) {
        force(f);
      }
      return;
    }
    Semaphore slots = new Semaphore(AT_ONCE);
    List<Future<?>> forced = new ArrayList<>(files.size());
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Path f : files) {
        slots.acquireUninterruptibly();
        forced.add(
            threads.submit(() -> {
              try {
                force(f);
              } finally {
                slots.release();
              }
              return null;
            }));
      }
    }
    for (Future<?> f : forced) {
      try {
        f.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while forcing blobs to disk", e);
      }
    }
  }

  private static void force(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /**
   * Forces a directory's entries to disk, which makes the files created or renamed in it durable
   * (Linux allows fsync on a directory opened to read).
   */
  public static void directory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      if (!System.getProperty("os.name", "").startsWith("Windows")) {
        throw e;
      }
      // Windows cannot open directories as channels; NTFS journals renames itself.
    }
  }
}
