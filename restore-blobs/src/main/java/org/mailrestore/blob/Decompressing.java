package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/** Opens the decompressing view of a stored blob, with errors that name it. */
public final class Decompressing {

  private Decompressing() {}

  /**
   * Wraps {@code raw} (closed on failure): decompression errors surface as {@code
   * CORRUPT_COMPRESSION}, read errors as {@code IO_ERROR}, both naming {@code where} (asked only
   * then).
   */
  public static InputStream open(
      InputStream raw, BlobCompression compression, Supplier<String> where) throws IOException {
    // Read errors of the stored bytes (a reset connection) stay I/O errors, which can be retried;
    // only what the decompressor itself rejects is a corrupt blob.
    InputStream stored =
        new TranslatedErrors(
            raw,
            e ->
                new BlobException(
                    BlobException.Reason.IO_ERROR,
                    "reading " + where.get() + " failed: " + e.getMessage(),
                    e));
    Function<IOException, BlobException> corrupt =
        e ->
            new BlobException(
                BlobException.Reason.CORRUPT_COMPRESSION,
                where.get()
                    + " is not a valid "
                    + compression.name().toLowerCase(Locale.ROOT)
                    + " stream: "
                    + e.getMessage(),
                e);
    try {
      return new TranslatedErrors(compression.decompress(stored), corrupt);
    } catch (IOException e) {
      raw.close();
      throw corrupt.apply(e);
    }
  }
}
