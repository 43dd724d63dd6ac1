package org.mailrestore.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;

/**
 * Turns the I/O errors of a stream into {@link BlobException}s that say what failed; errors that
 * are already {@link BlobException}s (marked by a stream underneath) pass through unchanged.
 */
final class TranslatedErrors extends FilterInputStream {

  private final Function<IOException, BlobException> translate;

  TranslatedErrors(InputStream in, Function<IOException, BlobException> translate) {
    super(in);
    this.translate = translate;
  }

  @Override
  public int read() throws IOException {
    try {
      return in.read();
    } catch (BlobException e) {
      throw e;
    } catch (IOException e) {
      throw translate.apply(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return in.read(b, off, len);
    } catch (BlobException e) {
      throw e;
    } catch (IOException e) {
      throw translate.apply(e);
    }
  }
}
