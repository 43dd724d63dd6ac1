package org.mailrestore.zimbra;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a tar stream the way Zimbra's archive writer does, so that Zimbra's importer reads it as
 * its own: ustar magic with NUL version bytes, an empty user name, uid and gid 0, the item type's
 * name as the group and its number as the device major, GNU long-name entries for names over 100
 * bytes (Zimbra's reader knows no ustar prefix nor pax), and the end padded to a 10240-byte record.
 */
final class TarWriter implements AutoCloseable {

  private static final int BLOCK = TarReader.BLOCK;
  private static final int RECORD = 20 * BLOCK;
  private static final String LONG_LINK = "././@LongLink";

  /** Zimbra's mode for an item's entries; an unread message's lack the owner-write bit. */
  static final int MODE_READ = 0100644;

  static final int MODE_UNREAD = 0100444;

  private final OutputStream out;
  private long written;
  private long entryRemaining = -1;
  private long entrySize;

  TarWriter(OutputStream out) {
    this.out = out;
  }

  /**
   * Starts an entry; write exactly {@code size} bytes with {@link #write} before the next.
   *
   * @param mtime seconds since the epoch
   */
  void putEntry(String name, long size, long mtime, int mode, String group, int devMajor)
      throws IOException {
    closeEntry();
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    if (nameBytes.length > 100) {
      byte[] longName = new byte[nameBytes.length + 1];
      System.arraycopy(nameBytes, 0, longName, 0, nameBytes.length);
      writeHeader(
          LONG_LINK.getBytes(StandardCharsets.US_ASCII), longName.length, 0, 0100644, 'L', "", 0);
      writeRaw(longName, 0, longName.length);
      padBlock(longName.length);
    }
    writeHeader(nameBytes, size, mtime, mode, '0', group, devMajor);
    entryRemaining = size;
    entrySize = size;
  }

  void write(byte[] b, int off, int len) throws IOException {
    if (len > entryRemaining) {
      throw new IOException(
          "entry content longer than its declared " + entrySize + " bytes (a bug)");
    }
    writeRaw(b, off, len);
    entryRemaining -= len;
  }

  void write(byte[] b) throws IOException {
    write(b, 0, b.length);
  }

  /** Ends the current entry (its content must be complete), padding it to a whole block. */
  void closeEntry() throws IOException {
    if (entryRemaining < 0) {
      return;
    }
    if (entryRemaining > 0) {
      throw new IOException(
          "entry content " + entryRemaining + " bytes short of its declared " + entrySize);
    }
    padBlock(entrySize);
    entryRemaining = -1;
  }

  /** Ends the archive: two zero blocks, then zeros up to a whole record. */
  void finish() throws IOException {
    closeEntry();
    writeRaw(new byte[2 * BLOCK], 0, 2 * BLOCK);
    long rest = written % RECORD;
    if (rest != 0) {
      writeRaw(new byte[(int) (RECORD - rest)], 0, (int) (RECORD - rest));
    }
    out.flush();
  }

  private void writeHeader(
      byte[] name, long size, long mtime, int mode, char type, String group, int devMajor)
      throws IOException {
    byte[] h = new byte[BLOCK];
    System.arraycopy(name, 0, h, 0, Math.min(100, name.length));
    octal(h, 100, 8, mode);
    octal(h, 108, 8, 0);
    octal(h, 116, 8, 0);
    octal(h, 124, 12, size);
    octal(h, 136, 12, Math.max(0, mtime));
    h[156] = (byte) type;
    byte[] magic = {'u', 's', 't', 'a', 'r', 0, 0, 0};
    System.arraycopy(magic, 0, h, 257, magic.length);
    byte[] groupBytes = group.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(groupBytes, 0, h, 297, Math.min(31, groupBytes.length));
    octal(h, 329, 8, devMajor);
    octal(h, 337, 8, 0);
    for (int i = 148; i < 156; i++) {
      h[i] = ' ';
    }
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    octal(h, 148, 7, sum);
    h[155] = ' ';
    writeRaw(h, 0, BLOCK);
  }

  /** Zero-padded octal digits ending in NUL, as every tar reader accepts. */
  private static void octal(byte[] h, int offset, int length, long value) throws IOException {
    String digits = Long.toOctalString(value);
    if (digits.length() > length - 1) {
      throw new IOException("value " + value + " does not fit a tar header field");
    }
    int pad = length - 1 - digits.length();
    for (int i = 0; i < pad; i++) {
      h[offset + i] = '0';
    }
    for (int i = 0; i < digits.length(); i++) {
      h[offset + pad + i] = (byte) digits.charAt(i);
    }
    h[offset + length - 1] = 0;
  }

  private void padBlock(long size) throws IOException {
    long rest = size % BLOCK;
    if (rest != 0) {
      writeRaw(new byte[(int) (BLOCK - rest)], 0, (int) (BLOCK - rest));
    }
  }

  private void writeRaw(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    written += len;
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
