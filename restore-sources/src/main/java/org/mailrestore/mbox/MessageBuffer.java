package org.mailrestore.mbox;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import org.mailrestore.blob.BlobDigest;

/**
 * One message of an mbox as it is read: its bytes in memory up to a few megabytes, the rest spooled
 * to a temporary file, so that its size and digest are known before the restore takes it, whatever
 * its size, in bounded memory. Reused from message to message.
 */
final class MessageBuffer implements AutoCloseable {

  /** Messages up to this size stay in memory. */
  static final int IN_MEMORY = 4 << 20;

  /** How much of the start is kept for reading the headers. */
  static final int HEAD = 64 * 1024;

  private final long maxSize;
  private byte[] memory = new byte[64 * 1024];
  private int memoryLength;
  private Path spill;
  private OutputStream spillOut;
  private long size;
  private boolean tooLarge;

  /** Messages of any size (a pass over the headers alone). */
  MessageBuffer() {
    this(Long.MAX_VALUE);
  }

  /**
   * @param maxSize the largest message kept: a larger one is counted, its bytes dropped as they
   *     come, and it reads as {@link #tooLarge}
   */
  MessageBuffer(long maxSize) {
    this.maxSize = maxSize;
  }

  void reset() throws IOException {
    closeSpill();
    memoryLength = 0;
    size = 0;
    tooLarge = false;
  }

  /** Whether the message is larger than the largest kept: only its head and size are known. */
  boolean tooLarge() {
    return tooLarge;
  }

  void write(byte[] b, int off, int len) throws IOException {
    if (len <= 0) {
      return;
    }
    if (!tooLarge && size + len > maxSize) {
      tooLarge = true; // no more of it on disk: the spill goes, the head stays for the report
      closeSpill();
    }
    if (tooLarge) {
      size += len;
      return;
    }
    if (spillOut == null && memoryLength + len > IN_MEMORY) {
      spill = Files.createTempFile("mailrestore-mbox", ".eml");
      spillOut = new BufferedOutputStream(Files.newOutputStream(spill), 1 << 16);
      spillOut.write(memory, 0, memoryLength);
    }
    if (spillOut != null) {
      spillOut.write(b, off, len);
      if (memoryLength < HEAD) {
        int keep = Math.min(len, HEAD - memoryLength);
        ensure(memoryLength + keep);
        System.arraycopy(b, off, memory, memoryLength, keep);
        memoryLength += keep;
      }
    } else {
      ensure(memoryLength + len);
      System.arraycopy(b, off, memory, memoryLength, len);
      memoryLength += len;
    }
    size += len;
  }

  private void ensure(int capacity) {
    if (capacity > memory.length) {
      memory = Arrays.copyOf(memory, Math.max(capacity, Math.min(IN_MEMORY, memory.length * 2)));
    }
  }

  long size() {
    return size;
  }

  /** The last byte written, or -1. */
  int last(int back) throws IOException {
    if (size - back <= 0) {
      return -1;
    }
    if (spillOut == null) {
      return memory[memoryLength - back] & 0xff;
    }
    spillOut.flush();
    try (FileChannel ch = FileChannel.open(spill, StandardOpenOption.READ)) {
      java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(1);
      ch.read(one, size - back);
      return one.get(0) & 0xff;
    }
  }

  /** Removes the message's last line ending ({@code \n} or {@code \r\n}), when it has one. */
  void trimLineEnding() throws IOException {
    if (tooLarge) {
      return;
    }
    if (last(1) != '\n') {
      return;
    }
    int cut = last(2) == '\r' ? 2 : 1;
    if (spillOut == null) {
      memoryLength -= cut;
    } else {
      spillOut.close();
      try (FileChannel ch = FileChannel.open(spill, StandardOpenOption.WRITE)) {
        ch.truncate(size - cut);
      }
      spillOut =
          new BufferedOutputStream(
              Files.newOutputStream(spill, StandardOpenOption.APPEND), 1 << 16);
      if (memoryLength > size - cut) {
        memoryLength = (int) (size - cut);
      }
    }
    size -= cut;
  }

  /** The start of the message, for its headers. */
  byte[] head() {
    return memory;
  }

  int headLength() {
    return (int) Math.min(memoryLength, HEAD);
  }

  /** The message's SHA-256. */
  BlobDigest digest() throws IOException {
    MessageDigest sha = BlobDigest.newSha256();
    if (spillOut == null) {
      sha.update(memory, 0, memoryLength);
    } else {
      try (InputStream in = open()) {
        byte[] buffer = new byte[1 << 16];
        int n;
        while ((n = in.read(buffer)) >= 0) {
          sha.update(buffer, 0, n);
        }
      }
    }
    return BlobDigest.of(sha.digest());
  }

  /** The message's bytes. */
  InputStream open() throws IOException {
    if (spillOut == null) {
      return new ByteArrayInputStream(memory, 0, memoryLength);
    }
    spillOut.flush();
    return new BufferedInputStream(Files.newInputStream(spill), 1 << 16);
  }

  private void closeSpill() throws IOException {
    if (spillOut != null) {
      spillOut.close();
      spillOut = null;
    }
    if (spill != null) {
      Files.deleteIfExists(spill);
      spill = null;
    }
  }

  @Override
  public void close() throws IOException {
    closeSpill();
  }
}
