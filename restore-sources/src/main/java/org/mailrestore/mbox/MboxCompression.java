package org.mailrestore.mbox;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * How an mbox file is compressed, told by its first bytes: archived mailboxes and mailing-list
 * archives are often kept as {@code Name.mbox.gz} (or zstd). Read as a stream, decompressed.
 */
enum MboxCompression {
  NONE(""),
  GZIP(".gz"),
  ZSTD(".zst");

  private final String extension;

  MboxCompression(String extension) {
    this.extension = extension;
  }

  /** The compression of a file, from its magic number (a file too short for one is plain). */
  static MboxCompression of(Path file) throws IOException {
    byte[] magic;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      magic = in.readNBytes(4);
    }
    if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
      return GZIP;
    }
    if (magic.length == 4
        && (magic[0] & 0xff) == 0x28
        && (magic[1] & 0xff) == 0xb5
        && (magic[2] & 0xff) == 0x2f
        && (magic[3] & 0xff) == 0xfd) {
      return ZSTD;
    }
    return NONE;
  }

  /** The file's bytes, decompressed (several gzip members one after another are one stream). */
  InputStream open(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
    try {
      return switch (this) {
        case NONE -> raw;
        case GZIP -> new GZIPInputStream(raw, 1 << 16);
        case ZSTD -> new ZstdInputStream(raw);
      };
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /**
   * A file name without this compression's extension ({@code Lists.mbox.gz}: {@code Lists.mbox}).
   */
  String strip(String name) {
    boolean has =
        !extension.isEmpty()
            && name.length() > extension.length()
            && name.toLowerCase(Locale.ROOT).endsWith(extension);
    return has ? name.substring(0, name.length() - extension.length()) : name;
  }
}
