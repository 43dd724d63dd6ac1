package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * A blob source over names laid out by {@link BlobLayout}: finds a blob whatever its compression
 * ({@code .zst}, {@code .gz} or none) and decompresses it on the fly. Backups use one compression
 * throughout, so the last one found is tried first: one lookup per blob.
 */
public abstract class ProbingBlobSource implements BlobSource {

  private static final List<BlobCompression> PROBE_ORDER =
      List.of(BlobCompression.NONE, BlobCompression.ZSTD, BlobCompression.GZIP);

  private volatile BlobCompression lastFound = BlobCompression.NONE;

  /** Opens the stored bytes under {@code name}, or returns null when there are none. */
  protected abstract InputStream openStored(String name) throws IOException;

  /** Where {@code name} is, for messages (a path or a URI). */
  protected abstract String where(String name);

  @Override
  public final InputStream open(BlobDigest digest) throws IOException {
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
        "blob " + digest + " is missing from the backup: nothing at " + describe(digest));
  }

  private InputStream tryOpen(BlobDigest digest, BlobCompression compression) throws IOException {
    String name = BlobLayout.relativeName(digest, compression);
    InputStream raw = openStored(name);
    return raw == null ? null : Decompressing.open(raw, compression, () -> where(name));
  }

  @Override
  public final String describe(BlobDigest digest) {
    return where(BlobLayout.relativeName(digest, BlobCompression.NONE)) + "[.zst|.gz]";
  }
}
