package org.mailrestore.blob.pack;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** The first {@code limit} bytes of a stream; fails if the stream has fewer. */
final class BoundedInputStream extends FilterInputStream {

  private long remaining;

  BoundedInputStream(InputStream in, long limit) {
    super(in);
    this.remaining = limit;
  }

  @Override
  public int read() throws IOException {
    if (remaining <= 0) {
      return -1;
    }
    int b = in.read();
    if (b < 0) {
      throw new IOException("the pack ends " + remaining + " bytes early");
    }
    remaining--;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (remaining <= 0) {
      return -1;
    }
    int n = in.read(b, off, (int) Math.min(len, remaining));
    if (n < 0) {
      throw new IOException("the pack ends " + remaining + " bytes early");
    }
    remaining -= n;
    return n;
  }
}
