package org.mailrestore.blob;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** How a blob's bytes are compressed at rest; the file or key suffix says which. */
public enum BlobCompression {
  NONE(""),
  GZIP(".gz"),
  ZSTD(".zst");

  private static final int GZIP_BUFFER = 64 * 1024;

  private final String suffix;

  BlobCompression(String suffix) {
    this.suffix = suffix;
  }

  public String suffix() {
    return suffix;
  }

  public InputStream decompress(InputStream in) throws IOException {
    return switch (this) {
      case NONE -> in;
      case GZIP -> new GZIPInputStream(in, GZIP_BUFFER);
      case ZSTD -> new ZstdInputStream(in);
    };
  }

  /**
   * Wraps {@code out}; closing the result finishes the compressed stream and closes {@code out}.
   */
  public OutputStream compress(OutputStream out) throws IOException {
    return switch (this) {
      case NONE -> out;
      case GZIP -> new GZIPOutputStream(out, GZIP_BUFFER);
      // Level 3 is zstd's default: several hundred MB/s, text shrinks 3-5x.
      case ZSTD -> new ZstdOutputStream(out, 3);
    };
  }

  /** The compression a name ends with, {@link #NONE} when it has no known suffix. */
  public static BlobCompression fromName(String name) {
    if (name.endsWith(ZSTD.suffix)) {
      return ZSTD;
    }
    if (name.endsWith(GZIP.suffix)) {
      return GZIP;
    }
    return NONE;
  }

  /** Parses a setting such as {@code zstd}, {@code gzip} or {@code none}. */
  public static BlobCompression parse(String setting) {
    return switch (setting.trim().toLowerCase(Locale.ROOT)) {
      case "none", "" -> NONE;
      case "gzip", "gz" -> GZIP;
      case "zstd", "zst" -> ZSTD;
      default ->
          throw new IllegalArgumentException(
              "unknown blob compression '" + setting + "' (use none, gzip or zstd)");
    };
  }
}
