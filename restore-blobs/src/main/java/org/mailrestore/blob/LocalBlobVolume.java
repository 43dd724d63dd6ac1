package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One file per blob under a local directory, named by {@link BlobLayout}.
 *
 * <p>A blob is written to a temporary file, then renamed to its final name, so a reader never sees
 * a partial blob under a digest name while the process runs. {@link #sync()} forces the files
 * written since the last one, several at once, then the directories whose entries changed, which
 * makes the renames durable. Forcing each file as it was written made a source read one message
 * after another (an mbox, an archive) wait for the disk once per message; forced together, the file
 * system commits them in few journal writes. A crash before the sync may leave a digest's file cut
 * short: no row names it (rows commit after the sync), and the next write of that digest replaces
 * it.
 */
public final class LocalBlobVolume implements BlobVolume {

  private static final String TEMP_PREFIX = ".tmp-";

  private final Path root;
  private final BlobCompression compression;
  private final long compressionThreshold;
  private final Set<Path> createdDirectories = ConcurrentHashMap.newKeySet();
  private final Set<Path> directoriesToSync = ConcurrentHashMap.newKeySet();
  private final Set<Path> filesToForce = ConcurrentHashMap.newKeySet();
  private final ReentrantLock syncing = new ReentrantLock();
  private final AtomicLong tempCounter = new AtomicLong();

  /** An uncompressed volume. */
  public LocalBlobVolume(Path root) {
    this(root, BlobCompression.NONE, 0);
  }

  /**
   * @param compression how blobs at or above the threshold are compressed at rest
   * @param compressionThreshold the smallest blob (by size hint) that is compressed; smaller ones,
   *     and blobs of unknown size, are stored as they are
   */
  public LocalBlobVolume(Path root, BlobCompression compression, long compressionThreshold) {
    this.root = root.toAbsolutePath().normalize();
    this.compression = compression;
    this.compressionThreshold = compressionThreshold;
  }

  @Override
  public StoredBlob write(BlobDigest digest, long sizeHint, InputStream content)
      throws IOException {
    BlobCompression use =
        sizeHint >= 0 && sizeHint >= compressionThreshold ? compression : BlobCompression.NONE;
    String locator = BlobLayout.relativeName(digest, use);
    Path target = root.resolve(locator);
    Path directory = target.getParent();
    ensureDirectory(directory);
    Path temp = directory.resolve(TEMP_PREFIX + digest.hex() + "-" + tempCounter.incrementAndGet());
    long rawSize;
    long storedSize;
    try {
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        CountingOutputStream counted = new CountingOutputStream(Channels.newOutputStream(channel));
        OutputStream out = use.compress(new NonClosing(counted));
        rawSize = Streams.copy(content, out, sizeHint);
        out.close(); // finishes the compressed frame
        storedSize = counted.count();
      }
      publish(temp, target);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    filesToForce.add(target);
    directoriesToSync.add(directory);
    return new StoredBlob(digest, locator, rawSize, storedSize);
  }

  private static void publish(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the volume's file system cannot rename atomically: " + target, e);
    }
  }

  private void ensureDirectory(Path directory) throws IOException {
    if (!createdDirectories.contains(directory)) {
      Files.createDirectories(
          directory); // before it is recorded, so no other thread sees it missing
      directoriesToSync.add(directory.getParent());
      createdDirectories.add(directory);
    }
  }

  @Override
  public InputStream open(StoredBlob blob) throws IOException {
    Path file = resolveLocator(blob.locator());
    try {
      return BlobCompression.fromName(blob.locator()).decompress(Files.newInputStream(file));
    } catch (NoSuchFileException e) {
      throw new BlobException(
          BlobException.Reason.MISSING, "blob " + blob.digest() + " is missing from " + file, e);
    }
  }

  private Path resolveLocator(String locator) {
    Path file = root.resolve(locator).normalize();
    if (!file.startsWith(root)) {
      throw new IllegalArgumentException("locator escapes the volume: " + locator);
    }
    return file;
  }

  /**
   * One sync at a time: a sync that took another writer's files returns only once they are forced,
   * so that writer's own sync, finding nothing left, can rely on them. A lock rather than {@code
   * synchronized}: on JDK 21 a virtual thread waiting for a monitor holds its carrier, and the
   * forcing threads need carriers.
   */
  @Override
  public void sync() throws IOException {
    syncing.lock();
    try {
      Fsync.files(drain(filesToForce));
      for (Path directory : drain(directoriesToSync)) {
        Fsync.directory(directory);
      }
    } finally {
      syncing.unlock();
    }
  }

  private static List<Path> drain(Set<Path> set) {
    List<Path> taken = new ArrayList<>();
    for (Iterator<Path> it = set.iterator(); it.hasNext(); ) {
      taken.add(it.next());
      it.remove();
    }
    return taken;
  }

  public Path root() {
    return root;
  }

  @Override
  public void check() throws IOException {
    Files.createDirectories(root);
    if (!Files.isWritable(root)) {
      throw new IOException(root + " is not writable");
    }
  }

  @Override
  public String describe() {
    return "local volume "
        + root
        + (compression == BlobCompression.NONE ? "" : " (" + compression + ")");
  }

  /** Keeps the channel open when the compressor closes its stream, so it can still be forced. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
