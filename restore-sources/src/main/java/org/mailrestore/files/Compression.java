package org.mailrestore.files;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.mailrestore.blob.PathFence;
import org.tukaani.xz.XZInputStream;

/**
 * How a mail file is compressed, told by its first bytes: archived mbox files are kept as {@code
 * Name.mbox.gz} (or {@code .bz2}, {@code .xz}, {@code .zst}), and Dovecot's zlib plugin compresses
 * Maildir messages in place with any of these or its own LZ4 format. Read as a stream,
 * decompressed.
 */
public enum Compression {
  NONE("", "no compression"),
  GZIP(".gz", "gzip"),
  ZSTD(".zst", "zstd"),
  BZIP2(".bz2", "bzip2"),
  XZ(".xz", "xz"),
  /** Dovecot's own framing of LZ4 blocks ({@link DovecotLz4InputStream}); no file extension. */
  DOVECOT_LZ4("", "Dovecot's LZ4");

  /** What an xz stream may take to decompress: {@code xz -9} needs 65 MiB. */
  private static final int XZ_MEMORY_KIB = 96 * 1024;

  /** The most bytes {@link #of(byte[], int)} looks at. */
  public static final int MAGIC_BYTES = 10;

  private final String extension;
  private final String label;

  Compression(String extension, String label) {
    this.extension = extension;
    this.label = label;
  }

  /** The compression's name, for messages ("gzip", "Dovecot's LZ4"). */
  public String label() {
    return label;
  }

  /** The compression of a file, from its magic number (a file too short for one is plain). */
  public static Compression of(PathFence fence, Path file) throws IOException {
    byte[] magic;
    try (InputStream in = fence.open(file)) {
      magic = in.readNBytes(MAGIC_BYTES);
    }
    return of(magic, magic.length);
  }

  /**
   * The compression the first {@code length} bytes of a file show. A bzip2 stream is told by its
   * block's magic as well as its own, as "BZh" alone begins ordinary text.
   */
  public static Compression of(byte[] head, int length) {
    if (starts(head, length, 0x1f, 0x8b)) {
      return GZIP;
    }
    if (starts(head, length, 0x28, 0xb5, 0x2f, 0xfd)) {
      return ZSTD;
    }
    if (starts(head, length, 'B', 'Z', 'h')
        && length >= 10
        && head[3] >= '1'
        && head[3] <= '9'
        && startsAt(head, 4, length, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59)) {
      return BZIP2;
    }
    if (starts(head, length, 0xfd, '7', 'z', 'X', 'Z', 0)) {
      return XZ;
    }
    if (starts(head, length, 'D', 'o', 'v', 'e', 'c', 'o', 't', '-', 'L', 'Z')) {
      return DOVECOT_LZ4;
    }
    return NONE;
  }

  private static boolean starts(byte[] head, int length, int... magic) {
    return startsAt(head, 0, length, magic);
  }

  private static boolean startsAt(byte[] head, int from, int length, int... magic) {
    if (length - from < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if ((head[from + i] & 0xff) != magic[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The file's bytes, decompressed (several gzip, bzip2 or xz streams one after another are one
   * stream, as their command-line tools read them).
   */
  public InputStream open(Path file) throws IOException {
    return open(PathFence.NONE, file);
  }

  /** The same, the file opened through {@code fence}. */
  public InputStream open(PathFence fence, Path file) throws IOException {
    InputStream raw = fence.open(file);
    try {
      return decompress(raw);
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /** {@code raw} decompressed; closing the result closes it. */
  public InputStream decompress(InputStream raw) throws IOException {
    return switch (this) {
      case NONE -> raw;
      case GZIP -> new GZIPInputStream(raw, 1 << 16);
      case ZSTD -> new ZstdInputStream(raw);
      case BZIP2 -> new BZip2CompressorInputStream(raw, true);
      case XZ -> new XZInputStream(raw, XZ_MEMORY_KIB);
      case DOVECOT_LZ4 -> new DovecotLz4InputStream(raw);
    };
  }

  /**
   * A file name without the extension of any compression ({@code Old.mbox.bz2}: {@code Old.mbox}).
   */
  public static String stripAny(String name) {
    for (Compression compression : values()) {
      String stripped = compression.strip(name);
      if (!stripped.equals(name)) {
        return stripped;
      }
    }
    return name;
  }

  /**
   * A file name without this compression's extension ({@code Lists.mbox.gz}: {@code Lists.mbox}).
   */
  public String strip(String name) {
    boolean has =
        !extension.isEmpty()
            && name.length() > extension.length()
            && name.toLowerCase(Locale.ROOT).endsWith(extension);
    return has ? name.substring(0, name.length() - extension.length()) : name;
  }
}
