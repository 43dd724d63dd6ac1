package org.mailrestore.zimbra;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A stream read ahead by a thread of its own, a few chunks at most: an archive's inflating runs
 * beside the reading of its tar entries and {@code .meta} JSON, on another core. An account's
 * archive is read by one thread per pass, and inflating is half of that thread's work.
 *
 * <p>Every byte read ahead is delivered before the error that ended the reading, so a broken
 * archive restores every complete item before the break, as without it. The thread is a platform
 * thread: inflating holds it in native code, where a virtual thread would hold its carrier.
 */
final class ReadAhead extends InputStream {

  /** Bytes per chunk; {@link #CHUNKS} of them are read ahead at most. */
  static final int CHUNK = 1 << 16;

  static final int CHUNKS = 4;

  /** A chunk read, or the end ({@code length} -1), or what stopped the reading. */
  private record Chunk(byte[] bytes, int length, IOException failure) {}

  private static final Chunk END = new Chunk(null, -1, null);

  private final InputStream source;
  private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(CHUNKS);
  private final BlockingQueue<Chunk> filled = new ArrayBlockingQueue<>(CHUNKS + 1);
  private final Thread reader;
  private volatile boolean closed;
  private Chunk current;
  private int position;

  ReadAhead(InputStream source, String name) {
    this.source = source;
    for (int i = 0; i < CHUNKS; i++) {
      free.add(new byte[CHUNK]);
    }
    this.reader = Thread.ofPlatform().daemon().name("read-ahead " + name).start(this::readAll);
  }

  private void readAll() {
    try {
      while (!closed) {
        byte[] bytes = free.take();
        int n = 0;
        int last = 0;
        IOException failure = null;
        try {
          while (n < CHUNK && (last = source.read(bytes, n, CHUNK - n)) >= 0) {
            n += last;
          }
        } catch (IOException e) {
          failure = e;
        } catch (RuntimeException e) { // a closed inflater says so with an unchecked exception
          failure = new IOException(e.getMessage(), e);
        }
        if (n > 0) {
          filled.put(new Chunk(bytes, n, null)); // the bytes before a failure come first
        }
        if (failure != null) {
          if (!closed) {
            filled.put(new Chunk(null, 0, failure));
          }
          return;
        }
        if (last < 0) {
          filled.put(END);
          return;
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** The chunk to read from, or null at the end. */
  private Chunk chunk() throws IOException {
    if (current != null && position < current.length()) {
      return current;
    }
    if (current == END) {
      return null;
    }
    if (current != null) {
      free.add(current.bytes());
    }
    try {
      current = filled.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading the archive");
    }
    position = 0;
    if (current.failure() != null) {
      IOException failure = current.failure();
      current = END;
      throw failure;
    }
    return current == END ? null : current;
  }

  @Override
  public int read() throws IOException {
    Chunk c = chunk();
    return c == null ? -1 : c.bytes()[position++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    Chunk c = chunk();
    if (c == null) {
      return -1;
    }
    int n = Math.min(len, c.length() - position);
    System.arraycopy(c.bytes(), position, b, off, n);
    position += n;
    return n;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    // Not joined: a read from the network may not end at an interrupt, but it ends when its
    // stream is closed.
    reader.interrupt();
    source.close();
  }
}
