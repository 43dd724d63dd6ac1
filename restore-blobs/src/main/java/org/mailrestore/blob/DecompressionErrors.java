package org.mailrestore.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Turns what a decompressor rejects into {@code CORRUPT_COMPRESSION} failures (read errors of the
 * bytes underneath arrive already marked by {@link ReadErrors} and pass through).
 */
final class DecompressionErrors extends FilterInputStream {

  private final BlobCompression compression;
  private final String where;

  DecompressionErrors(InputStream in, BlobCompression compression, String where) {
    super(in);
    this.compression = compression;
    this.where = where;
  }

  @Override
  public int read() throws IOException {
    try {
      return in.read();
    } catch (BlobException e) {
      throw e;
    } catch (IOException e) {
      throw translate(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return in.read(b, off, len);
    } catch (BlobException e) {
      throw e;
    } catch (IOException e) {
      throw translate(e);
    }
  }

  private IOException translate(IOException e) {
    return new BlobException(
        BlobException.Reason.CORRUPT_COMPRESSION,
        where
            + " is not a valid "
            + compression.name().toLowerCase(Locale.ROOT)
            + " stream: "
            + e.getMessage(),
        e);
  }
}
