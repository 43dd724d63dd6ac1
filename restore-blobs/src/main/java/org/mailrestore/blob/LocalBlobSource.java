package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Reads the blobs of a backup from a local directory laid out by {@link BlobLayout}, whatever their
 * compression ({@code .zst}, {@code .gz} or none).
 */
public final class LocalBlobSource implements BlobSource {

  private static final List<BlobCompression> PROBE_ORDER =
      List.of(BlobCompression.NONE, BlobCompression.ZSTD, BlobCompression.GZIP);

  private final Path directory;
  // Backups use one compression throughout, so the last one found is tried first.
  private volatile BlobCompression lastFound = BlobCompression.NONE;

  public LocalBlobSource(Path directory) {
    this.directory = directory;
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    BlobCompression first = lastFound;
    InputStream in = tryOpen(digest, first);
    if (in != null) {
      return in;
    }
    for (BlobCompression compression : PROBE_ORDER) {
      if (compression != first) {
        in = tryOpen(digest, compression);
        if (in != null) {
          lastFound = compression;
          return in;
        }
      }
    }
    throw new BlobException(
        BlobException.Reason.MISSING,
        "blob " + digest + " is missing from the backup: no file " + describe(digest));
  }

  private InputStream tryOpen(BlobDigest digest, BlobCompression compression) throws IOException {
    Path file = directory.resolve(BlobLayout.relativeName(digest, compression));
    InputStream raw;
    try {
      raw = Files.newInputStream(file);
    } catch (NoSuchFileException e) {
      return null;
    }
    try {
      return new DecompressionErrors(compression.decompress(raw), compression, file.toString());
    } catch (IOException e) {
      raw.close();
      throw new BlobException(
          BlobException.Reason.CORRUPT_COMPRESSION,
          "blob file "
              + file
              + " is not valid "
              + compression.name().toLowerCase(Locale.ROOT)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public String describe(BlobDigest digest) {
    return directory.resolve(BlobLayout.relativeName(digest, BlobCompression.NONE)) + "[.zst|.gz]";
  }

  @Override
  public String toString() {
    return "local blob source " + directory;
  }
}
