package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/** Stream copying with buffers sized to the transfer. */
public final class Streams {

  /** Large sequential reads: few system calls per megabyte, as the medium prefers. */
  public static final int LARGE_BUFFER = 1 << 20;

  /** From this size on, reading (and hashing) and writing run on two threads, overlapped. */
  static final long PIPELINE_THRESHOLD = 4L << 20;

  private static final int SMALL_BUFFER = 16 * 1024;
  private static final int PIPELINE_BUFFERS = 4;

  /** Up to this size an expected size is trusted enough to allocate for it in advance. */
  public static final int PRESIZED_UP_TO = LARGE_BUFFER;

  private Streams() {}

  /**
   * A stream's bytes to its end, read into an array of the size expected: {@code readAllBytes}
   * instead fills buffers and copies them into the result, and from a file first asks its size and
   * position again. A stream shorter or longer than expected is read as it is. The stream is read
   * to its end (a check made at the end of a stream is made).
   *
   * @param expectedSize the size expected; unknown (-1) or over {@link #PRESIZED_UP_TO} (a size
   *     declared by a backup is not trusted with memory) reads as {@code readAllBytes} does
   */
  public static byte[] readAll(InputStream in, long expectedSize) throws IOException {
    if (expectedSize < 0 || expectedSize > PRESIZED_UP_TO) {
      return in.readAllBytes();
    }
    int size = (int) expectedSize;
    byte[] bytes = new byte[size];
    int n = in.readNBytes(bytes, 0, size);
    if (n < size) {
      return Arrays.copyOf(bytes, n);
    }
    int next = in.read();
    if (next < 0) {
      return bytes;
    }
    byte[] rest = in.readAllBytes();
    byte[] grown = Arrays.copyOf(bytes, size + 1 + rest.length);
    grown[size] = (byte) next;
    System.arraycopy(rest, 0, grown, size + 1, rest.length);
    return grown;
  }

  /**
   * Copies {@code in} to {@code out} until end of stream and returns the bytes copied.
   *
   * @param sizeHint the expected size, or -1: small blobs get a small buffer, large ones 1 MiB
   *     buffers and a second thread, so that reading (with its digest check) and writing overlap
   */
  public static long copy(InputStream in, OutputStream out, long sizeHint) throws IOException {
    if (sizeHint >= PIPELINE_THRESHOLD) {
      return pipelined(in, out);
    }
    byte[] buffer = new byte[bufferSize(sizeHint)];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) >= 0) {
      out.write(buffer, 0, n);
      total += n;
    }
    return total;
  }

  static int bufferSize(long sizeHint) {
    if (sizeHint < 0 || sizeHint > LARGE_BUFFER / 2) {
      return LARGE_BUFFER;
    }
    return (int) Math.max(SMALL_BUFFER, Math.min(LARGE_BUFFER, sizeHint + 1));
  }

  /** A filled buffer on its way to the writer; length -1 ends the stream. */
  private record Chunk(byte[] buffer, int length) {}

  private static final Chunk END = new Chunk(new byte[0], -1);

  /**
   * This thread reads; a virtual thread writes. At most {@link #PIPELINE_BUFFERS} buffers exist, so
   * memory stays bounded whatever the size. A failure on either side stops both and is thrown here
   * (a write failure first, as it is the cause).
   */
  private static long pipelined(InputStream in, OutputStream out) throws IOException {
    BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(PIPELINE_BUFFERS);
    BlockingQueue<Chunk> full = new ArrayBlockingQueue<>(PIPELINE_BUFFERS);
    for (int i = 0; i < PIPELINE_BUFFERS; i++) {
      free.add(new byte[LARGE_BUFFER]);
    }
    Throwable[] writeFailure = new Throwable[1];
    Thread writer =
        Thread.ofVirtual()
            .name("blob-writer")
            .start(() -> {
              try {
                for (Chunk c = full.take(); c != END; c = full.take()) {
                  out.write(c.buffer(), 0, c.length());
                  free.put(c.buffer());
                }
              } catch (IOException | RuntimeException e) {
                writeFailure[0] = e;
                free.clear();
                free.offer(new byte[0]); // wakes the reader, which then sees the failure
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    long total = 0;
    try {
      while (true) {
        byte[] buffer = free.take();
        if (buffer.length == 0) {
          break; // the writer failed
        }
        int filled = fill(in, buffer);
        if (filled > 0) {
          total += filled;
          full.put(new Chunk(buffer, filled));
        }
        if (filled < buffer.length) {
          break;
        }
      }
      full.put(END);
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      writer.interrupt();
      throw new InterruptedIOException("interrupted while copying a blob");
    } catch (IOException | RuntimeException e) {
      writer.interrupt();
      joinQuietly(writer);
      throw e;
    }
    if (writeFailure[0] instanceof IOException io) {
      throw io;
    }
    if (writeFailure[0] instanceof RuntimeException re) {
      throw re;
    }
    return total;
  }

  /** Reads until the buffer is full or the stream ends; returns the bytes read. */
  private static int fill(InputStream in, byte[] buffer) throws IOException {
    int filled = 0;
    while (filled < buffer.length) {
      int n = in.read(buffer, filled, buffer.length - filled);
      if (n < 0) {
        break;
      }
      filled += n;
    }
    return filled;
  }

  private static void joinQuietly(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
