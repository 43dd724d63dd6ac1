package org.mailrestore.files;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * How a mail file is compressed, told by its first bytes: archived mbox files are kept as {@code
 * Name.mbox.gz}, and Dovecot's zlib plugin compresses Maildir messages in place. Read as a stream,
 * decompressed.
 */
public enum Compression {
  NONE(""),
  GZIP(".gz"),
  ZSTD(".zst");

  /** The most bytes {@link #of(byte[], int)} looks at. */
  public static final int MAGIC_BYTES = 10;

  private final String extension;

  Compression(String extension) {
    this.extension = extension;
  }

  /** The compression of a file, from its magic number (a file too short for one is plain). */
  public static Compression of(Path file) throws IOException {
    byte[] magic;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      magic = in.readNBytes(MAGIC_BYTES);
    }
    return of(magic, magic.length);
  }

  /**
   * The compression the first {@code length} bytes of a file show.
   *
   * @throws IOException for a compression this reader cannot undo (bzip2, xz, Dovecot's LZ4), so
   *     that its bytes are never taken for mail
   */
  public static Compression of(byte[] head, int length) throws IOException {
    if (starts(head, length, 0x1f, 0x8b)) {
      return GZIP;
    }
    if (starts(head, length, 0x28, 0xb5, 0x2f, 0xfd)) {
      return ZSTD;
    }
    String other =
        starts(head, length, 'B', 'Z', 'h') && length >= 10 && startsAt(head, 4, length, 0x31, 0x41)
            ? "bzip2"
            : starts(head, length, 0xfd, '7', 'z', 'X', 'Z', 0)
                ? "xz"
                : starts(head, length, 'D', 'o', 'v', 'e', 'c', 'o', 't', '-', 'L', 'Z')
                    ? "Dovecot's LZ4"
                    : null;
    if (other != null) {
      throw new IOException(
          "compressed with "
              + other
              + ", which is not read (gzip and zstd are); decompress it first");
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

  /** The file's bytes, decompressed (several gzip members one after another are one stream). */
  public InputStream open(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
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
    };
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
