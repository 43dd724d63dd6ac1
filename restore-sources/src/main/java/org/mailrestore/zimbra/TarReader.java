package org.mailrestore.zimbra;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipException;

/**
 * Reads a tar stream one entry at a time, never holding more than a header: ustar and old-style
 * headers, GNU long names ({@code ././@LongLink}) and pax {@code path}/{@code size} records. It
 * knows where it is (the offset in the uncompressed stream) so that a truncated archive can be
 * reported with the place it ends.
 */
final class TarReader implements AutoCloseable {

  static final int BLOCK = 512;

  /** Names and pax records longer than this are refused: no real archive has them. */
  private static final int MAX_META_ENTRY = 1 << 20;

  /**
   * One entry's header.
   *
   * @param offset where the entry's header starts in the uncompressed stream
   * @param type the tar type flag ('0' a file, '5' a directory...)
   * @param mtime seconds since the epoch
   */
  record Entry(
      String name,
      long size,
      int mode,
      long mtime,
      char type,
      String group,
      int devMajor,
      long offset) {

    boolean isFile() {
      return type == '0' || type == '\0' || type == '7';
    }

    /** Zimbra clears the owner-write bit of an unread message's entries. */
    boolean unread() {
      return (mode & 0200) == 0;
    }
  }

  /** The archive ends in the middle of an entry, or a header is not a tar header. */
  static final class BrokenArchiveException extends IOException {
    private final long offset;

    BrokenArchiveException(String message, long offset, Throwable cause) {
      super(message, cause);
      this.offset = offset;
    }

    /** Where the uncompressed stream stopped making sense. */
    long offset() {
      return offset;
    }
  }

  private final InputStream in;
  private final byte[] header = new byte[BLOCK];
  private final byte[] skipped = new byte[8192]; // what is passed over lands here, never read
  private long position;
  private long remaining; // bytes of the current entry not yet read
  private long padding; // bytes after the current entry up to its block's end
  private Entry current;
  private boolean ended;
  private BrokenArchiveException broken; // once broken, every later read says so again

  TarReader(InputStream in) {
    this.in = in;
  }

  /** Where the reader is in the uncompressed stream. */
  long position() {
    return position;
  }

  /**
   * The next entry, passing over what is left of the current one; null at the end of the archive
   * (two zero blocks, or the end of the stream at a block boundary).
   *
   * @throws BrokenArchiveException when the stream ends inside an entry or a header is corrupt
   */
  Entry next() throws IOException {
    if (broken != null) {
      throw broken;
    }
    if (ended) {
      return null;
    }
    skipRest();
    String longName = null;
    Long paxSize = null;
    while (true) {
      long headerAt = position;
      int n = readFully(header, 0, BLOCK);
      if (n == 0) {
        return end();
      }
      if (n < BLOCK) {
        throw broken("the archive ends inside the header of an entry", headerAt, null);
      }
      if (isZeros(header)) {
        return end();
      }
      checkSum(headerAt);
      char type = (char) header[156];
      long size = number(124, 12, headerAt, "size");
      if (type == 'L' || type == 'x' || type == 'g' || type == 'K') {
        byte[] body = readMeta(size, headerAt, type);
        if (type == 'L') {
          longName = cString(body, 0, body.length);
        } else if (type == 'x') {
          PaxHeader pax = PaxHeader.parse(body);
          if (pax.path() != null) {
            longName = pax.path();
          }
          if (pax.size() != null) {
            paxSize = pax.size();
          }
        }
        continue; // 'g' (global pax) and 'K' (long link name) carry nothing we use
      }
      String name = longName != null ? longName : headerName();
      if (paxSize != null) {
        size = paxSize;
      }
      int mode = (int) number(100, 8, headerAt, "mode");
      long mtime = number(136, 12, headerAt, "mtime");
      String group = cString(header, 297, 32);
      int devMajor = isUstar() ? (int) numberOrZero(329, 8) : 0;
      current = new Entry(name, size, mode, mtime, type, group, devMajor, headerAt);
      boolean hasData = type != '5' && type != '1' && type != '2' && type != '3' && type != '4';
      remaining = hasData ? size : 0;
      padding = hasData ? pad(size) : 0;
      return current;
    }
  }

  /** The current entry's bytes; reading past its end gives -1. */
  InputStream content() {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (broken != null) {
          throw broken;
        }
        if (remaining <= 0) {
          return -1;
        }
        int want = (int) Math.min(len, remaining);
        int n = readSome(b, off, want);
        if (n < 0) {
          throw broken(
              "the archive ends inside entry "
                  + current.name()
                  + " ("
                  + remaining
                  + " of its "
                  + current.size()
                  + " bytes missing)",
              position,
              null);
        }
        remaining -= n;
        return n;
      }
    };
  }

  private Entry end() {
    ended = true;
    current = null;
    return null;
  }

  private void skipRest() throws IOException {
    long skip = remaining + padding;
    remaining = 0;
    padding = 0;
    while (skip > 0) {
      long at = position;
      int n = readSome(skipped, 0, (int) Math.min(skipped.length, skip));
      if (n < 0) {
        throw broken(
            "the archive ends inside entry " + (current == null ? "?" : current.name()), at, null);
      }
      skip -= n;
    }
  }

  private byte[] readMeta(long size, long headerAt, char type) throws IOException {
    if (size < 0 || size > MAX_META_ENTRY) {
      throw broken(
          "a "
              + (type == 'L' ? "long name" : "pax header")
              + " entry of "
              + size
              + " bytes (no real archive has one over "
              + MAX_META_ENTRY
              + ")",
          headerAt,
          null);
    }
    byte[] body = new byte[(int) size];
    if (readFully(body, 0, body.length) < body.length) {
      throw broken("the archive ends inside a long name entry", position, null);
    }
    long pad = pad(size);
    byte[] skip = new byte[(int) pad];
    if (readFully(skip, 0, skip.length) < skip.length) {
      throw broken("the archive ends inside a long name entry", position, null);
    }
    return body;
  }

  private static long pad(long size) {
    long rest = size % BLOCK;
    return rest == 0 ? 0 : BLOCK - rest;
  }

  private String headerName() {
    String name = cString(header, 0, 100);
    if (isUstar()) {
      String prefix = cString(header, 345, 155);
      if (!prefix.isEmpty()) {
        name = prefix + "/" + name;
      }
    }
    return name;
  }

  private boolean isUstar() {
    return header[257] == 'u'
        && header[258] == 's'
        && header[259] == 't'
        && header[260] == 'a'
        && header[261] == 'r';
  }

  private void checkSum(long headerAt) throws IOException {
    long declared = number(148, 8, headerAt, "checksum");
    // The checksum's own field counts as eight spaces: the block summed as it is, then the field's
    // bytes traded for spaces (a test per byte cost 2 % of an archive restore's CPU).
    long unsigned = 0;
    long signed = 0;
    for (int i = 0; i < BLOCK; i++) {
      byte b = header[i];
      unsigned += b & 0xff;
      signed += b;
    }
    for (int i = 148; i < 156; i++) {
      unsigned += ' ' - (header[i] & 0xff);
      signed += ' ' - header[i];
    }
    if (declared != unsigned && declared != signed) {
      throw broken(
          "the block at this offset is not a tar header (its checksum is wrong): the archive is"
              + " corrupt from here on",
          headerAt,
          null);
    }
  }

  /** An octal field (or GNU's base-256 for large values). */
  private long number(int offset, int length, long headerAt, String field) throws IOException {
    if ((header[offset] & 0x80) != 0) {
      long value = 0;
      for (int i = offset + 1; i < offset + length; i++) {
        value = (value << 8) | (header[i] & 0xff);
        if (value < 0) {
          throw broken("the " + field + " of an entry is too large", headerAt, null);
        }
      }
      return value;
    }
    long value = 0;
    boolean digits = false;
    for (int i = offset; i < offset + length; i++) {
      byte b = header[i];
      if (b == 0 || (b == ' ' && digits)) {
        break;
      }
      if (b == ' ') {
        continue;
      }
      if (b < '0' || b > '7') {
        throw broken(
            "the " + field + " of an entry is not an octal number: the header is corrupt",
            headerAt,
            null);
      }
      value = (value << 3) + (b - '0');
      digits = true;
      if (value < 0) {
        throw broken("the " + field + " of an entry is too large", headerAt, null);
      }
    }
    return value;
  }

  /** A field only Zimbra's own entries fill (the device major): 0 when it is not a number. */
  private long numberOrZero(int offset, int length) {
    long value = 0;
    for (int i = offset; i < offset + length; i++) {
      byte b = header[i];
      if (b == 0 || b == ' ') {
        if (value > 0) {
          break;
        }
        continue;
      }
      if (b < '0' || b > '7' || value > Integer.MAX_VALUE) {
        return 0;
      }
      value = (value << 3) + (b - '0');
    }
    return value;
  }

  private static String cString(byte[] bytes, int offset, int length) {
    int end = offset;
    while (end < offset + length && bytes[end] != 0) {
      end++;
    }
    return new String(bytes, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static boolean isZeros(byte[] block) {
    for (byte b : block) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** Reads up to {@code len} bytes; returns how many before the stream ended. */
  private int readFully(byte[] b, int off, int len) throws IOException {
    int total = 0;
    while (total < len) {
      int n = readSome(b, off + total, len - total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  private int readSome(byte[] b, int off, int len) throws IOException {
    int n;
    try {
      n = in.read(b, off, len);
    } catch (EOFException e) {
      throw broken("the compressed stream ends early", position, e);
    } catch (ZipException e) {
      throw broken("the compressed stream is corrupt (" + e.getMessage() + ")", position, e);
    }
    if (n > 0) {
      position += n;
    }
    return n;
  }

  private BrokenArchiveException broken(String message, long offset, Throwable cause) {
    broken = new BrokenArchiveException(message, offset, cause);
    return broken;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
