package org.mailrestore.blob.pack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.Fsync;

/**
 * Packs as files under a directory. Each instance writes packs of its own ({@code
 * <instance>-<n>.pack}), never appending to a pack another run left, so a crash's unreferenced tail
 * is only ever garbage. Appends reserve a range under a short lock and write it with a positional
 * write; {@link #sync()} forces each pack written since the last sync once: one fsync for thousands
 * of blobs. Syncs run concurrently (one per cluster committing): each returns only once a force
 * that began after the appends it covers has ended, its own or another's.
 */
public final class LocalPackStore implements PackStore {

  public static final long DEFAULT_MAX_PACK_SIZE = 256L << 20;

  /** A pack file being written. */
  private static final class Pack {
    final String name;
    final FileChannel channel;
    final AtomicInteger writers = new AtomicInteger();

    /** Appends ended, and of them those a completed force covers. */
    final AtomicLong written = new AtomicLong();

    final AtomicLong forced = new AtomicLong();

    Pack(String name, FileChannel channel) {
      this.name = name;
      this.channel = channel;
    }
  }

  private final Path directory;
  private final String instance = UUID.randomUUID().toString().substring(0, 8);
  private final long maxPackSize;

  /** Packs appended to and not yet closed; a sync forces those with appends not yet forced. */
  private final Set<Pack> dirty = ConcurrentHashMap.newKeySet();

  private final List<Pack> retired = new ArrayList<>();
  private final Object lock = new Object();
  private int sequence;
  private Pack current;
  private long position;

  /** Packs created, and of them those a completed directory fsync covers. */
  private final AtomicLong packsCreated = new AtomicLong();

  private final AtomicLong packsCreatedForced = new AtomicLong();

  public LocalPackStore(Path directory, long maxPackSize) throws IOException {
    this.directory = directory.toAbsolutePath().normalize();
    this.maxPackSize = maxPackSize;
    Files.createDirectories(this.directory);
  }

  @Override
  public Slot append(byte[] bytes, int offset, int length) throws IOException {
    Pack pack;
    long at;
    synchronized (lock) {
      if (current == null || (position > 0 && position + length > maxPackSize)) {
        rotate();
      }
      pack = current;
      at = position;
      position += length;
      pack.writers.incrementAndGet();
    }
    try {
      ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
      long p = at;
      while (buffer.hasRemaining()) {
        p += pack.channel.write(buffer, p);
      }
      pack.written.incrementAndGet();
      dirty.add(pack); // before the writer count drops, so sync never closes it unforced
    } finally {
      pack.writers.decrementAndGet();
    }
    return new Slot(pack.name, at);
  }

  private void rotate() throws IOException {
    if (current != null) {
      retired.add(current);
    }
    String name = instance + "-" + (++sequence) + ".pack";
    current =
        new Pack(
            name,
            FileChannel.open(
                directory.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    position = 0;
    packsCreated.incrementAndGet();
  }

  @Override
  public InputStream read(String pack, long offset, long length) throws IOException {
    if (pack.contains("/") || pack.contains("\\") || pack.startsWith(".")) {
      throw new IllegalArgumentException("not a pack name: " + pack);
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(directory.resolve(pack), StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new BlobException(
          BlobException.Reason.MISSING, "pack " + pack + " is missing from " + directory, e);
    }
    channel.position(offset);
    return new BoundedInputStream(Channels.newInputStream(channel), length);
  }

  @Override
  public void sync() throws IOException {
    for (Pack pack : dirty) {
      long appends = pack.written.get();
      if (pack.forced.get() < appends) {
        pack.channel.force(false);
        pack.forced.accumulateAndGet(appends, Math::max);
      }
    }
    long created = packsCreated.get();
    if (packsCreatedForced.get() < created) {
      Fsync.directory(directory);
      packsCreatedForced.accumulateAndGet(created, Math::max);
    }
    closeRetired();
  }

  /** Closes full packs nobody writes to any more and whose bytes are forced. */
  private void closeRetired() throws IOException {
    List<Pack> done = new ArrayList<>();
    synchronized (lock) {
      for (Iterator<Pack> it = retired.iterator(); it.hasNext(); ) {
        Pack pack = it.next();
        if (pack.writers.get() == 0 && pack.forced.get() >= pack.written.get()) {
          it.remove();
          dirty.remove(pack);
          done.add(pack);
        }
      }
    }
    for (Pack pack : done) {
      pack.channel.close();
    }
  }

  @Override
  public void check() throws IOException {
    Files.createDirectories(directory);
    if (!Files.isWritable(directory)) {
      throw new IOException(directory + " is not writable");
    }
  }

  @Override
  public String describe() {
    return "local packs in " + directory;
  }

  @Override
  public void close() throws IOException {
    sync();
    synchronized (lock) {
      for (Pack pack : retired) {
        pack.channel.close();
      }
      retired.clear();
      if (current != null) {
        current.channel.close();
        current = null;
      }
    }
  }
}
