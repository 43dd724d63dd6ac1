package org.mailrestore.files;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.lz4.BlockLZ4CompressorOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** Bytes compressed as each tool writes them, for tests of what reads them. */
public final class Compressors {

  private Compressors() {}

  /** {@code bytes} compressed with {@code compression} ({@link Compression#NONE}: as they are). */
  public static byte[] compress(Compression compression, byte[] bytes) throws IOException {
    return switch (compression) {
      case NONE -> bytes;
      case GZIP -> gzip(bytes);
      case ZSTD -> Zstd.compress(bytes);
      case BZIP2 -> bzip2(bytes);
      case XZ -> xz(bytes);
      case DOVECOT_LZ4 -> dovecotLz4(bytes, 64 * 1024);
    };
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    var out = new ByteArrayOutputStream();
    try (OutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] bzip2(byte[] bytes) throws IOException {
    var out = new ByteArrayOutputStream();
    try (OutputStream bzip2 = new BZip2CompressorOutputStream(out)) {
      bzip2.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] xz(byte[] bytes) throws IOException {
    var out = new ByteArrayOutputStream();
    try (OutputStream xz = new XZOutputStream(out, new LZMA2Options())) {
      xz.write(bytes);
    }
    return out.toByteArray();
  }

  /** As Dovecot's {@code ostream-lz4.c} writes: its header, then each chunk's length and block. */
  public static byte[] dovecotLz4(byte[] bytes, int chunkSize) throws IOException {
    var out = new ByteArrayOutputStream();
    out.write("Dovecot-LZ4\r".getBytes(StandardCharsets.US_ASCII));
    out.write(new byte[] {0x2a, (byte) 0x9b, (byte) 0xc5});
    out.write(ByteBuffer.allocate(4).putInt(chunkSize).array());
    for (int at = 0; at < bytes.length; at += chunkSize) {
      var block = new ByteArrayOutputStream();
      try (OutputStream lz4 = new BlockLZ4CompressorOutputStream(block)) {
        lz4.write(bytes, at, Math.min(chunkSize, bytes.length - at));
      }
      out.write(ByteBuffer.allocate(4).putInt(block.size()).array());
      block.writeTo(out);
    }
    return out.toByteArray();
  }
}
