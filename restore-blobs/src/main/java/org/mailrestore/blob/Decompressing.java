package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/** Opens the decompressing view of a stored blob, with errors that name it. */
public final class Decompressing {

  private Decompressing() {}

  /**
   * Wraps {@code raw} (closed on failure): decompression errors surface as {@code
   * CORRUPT_COMPRESSION}, read errors as {@code IO_ERROR}, both naming {@code where}.
   */
  public static InputStream open(InputStream raw, BlobCompression compression, String where)
      throws IOException {
    // Read errors of the stored bytes (a reset connection) stay I/O errors, which can be retried;
    // only what the decompressor itself rejects is a corrupt blob.
    InputStream stored = new ReadErrors(raw, where);
    try {
      return new DecompressionErrors(compression.decompress(stored), compression, where);
    } catch (IOException e) {
      raw.close();
      throw new BlobException(
          BlobException.Reason.CORRUPT_COMPRESSION,
          where
              + " is not a valid "
              + compression.name().toLowerCase(Locale.ROOT)
              + " stream: "
              + e.getMessage(),
          e);
    }
  }
}
