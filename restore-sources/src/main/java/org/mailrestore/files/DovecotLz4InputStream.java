package org.mailrestore.files;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.commons.compress.compressors.lz4.BlockLZ4CompressorInputStream;

/**
 * A file Dovecot's zlib plugin wrote with {@code zlib_save = lz4}, decompressed. Dovecot frames LZ4
 * in a format of its own (not the LZ4 frame format of the {@code lz4} tool): a header, the magic
 * {@code "Dovecot-LZ4\r\x2a\x9b\xc5"} and the largest uncompressed chunk (4 bytes, big-endian),
 * then chunks, each its compressed length (4 bytes, big-endian) and one LZ4 block compressed on its
 * own.
 */
final class DovecotLz4InputStream extends InputStream {

  static final byte[] MAGIC =
      "Dovecot-LZ4\r\u002a\u009b\u00c5".getBytes(StandardCharsets.ISO_8859_1);

  /** Dovecot writes 64 KiB chunks and reads up to 1 MiB; more is a damaged or foreign file. */
  private static final int MAX_CHUNK = 1024 * 1024;

  private final InputStream raw;
  private int maxChunk = -1;
  private byte[] chunk = new byte[0];
  private int position;
  private long offset;

  DovecotLz4InputStream(InputStream raw) {
    this.raw = raw;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (position == chunk.length) {
      if (!nextChunk()) {
        return -1;
      }
    }
    int n = Math.min(len, chunk.length - position);
    System.arraycopy(chunk, position, b, off, n);
    position += n;
    return n;
  }

  private boolean nextChunk() throws IOException {
    if (maxChunk < 0) {
      byte[] header = read(MAGIC.length + 4, "header");
      if (!Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
        throw new IOException("not Dovecot's LZ4 format: wrong magic in its header");
      }
      maxChunk = bigEndian(header, MAGIC.length);
      if (maxChunk <= 0 || maxChunk > MAX_CHUNK) {
        throw new IOException("Dovecot LZ4 header gives a chunk size of " + maxChunk + " bytes");
      }
    }
    byte[] length = raw.readNBytes(4);
    if (length.length == 0) {
      return false;
    }
    if (length.length < 4) {
      throw truncated("chunk length");
    }
    int compressed = bigEndian(length, 0);
    // LZ4's bound on a block's compressed size: n + n / 255 + 16.
    if (compressed <= 0 || compressed > maxChunk + maxChunk / 255 + 16) {
      throw new IOException(
          "Dovecot LZ4 chunk of " + compressed + " bytes at byte " + offset + ": damaged file");
    }
    offset += 4;
    byte[] block = read(compressed, "chunk");
    try (InputStream in = new BlockLZ4CompressorInputStream(new ByteArrayInputStream(block))) {
      chunk = in.readNBytes(maxChunk + 1);
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "Dovecot LZ4 chunk at byte " + (offset - compressed) + " does not decompress: " + e, e);
    }
    if (chunk.length > maxChunk) {
      throw new IOException("Dovecot LZ4 chunk larger than its header allows: damaged file");
    }
    position = 0;
    return true;
  }

  private byte[] read(int n, String what) throws IOException {
    byte[] bytes = raw.readNBytes(n);
    if (bytes.length < n) {
      throw truncated(what);
    }
    offset += n;
    return bytes;
  }

  private EOFException truncated(String what) {
    return new EOFException("Dovecot LZ4 file cut short in its " + what + " at byte " + offset);
  }

  private static int bigEndian(byte[] b, int at) {
    return (b[at] & 0xff) << 24
        | (b[at + 1] & 0xff) << 16
        | (b[at + 2] & 0xff) << 8
        | b[at + 3] & 0xff;
  }

  @Override
  public void close() throws IOException {
    raw.close();
  }
}
