package org.mailrestore.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Marks the I/O errors of a stored blob's bytes as {@code IO_ERROR}, naming the blob. */
final class ReadErrors extends FilterInputStream {

  private final String where;

  ReadErrors(InputStream in, String where) {
    super(in);
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

  private BlobException translate(IOException e) {
    return new BlobException(
        BlobException.Reason.IO_ERROR, "reading " + where + " failed: " + e.getMessage(), e);
  }
}
