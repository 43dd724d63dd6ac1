package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Stream copying with buffers sized to the transfer. */
public final class Streams {

  /** Large sequential reads: few system calls per megabyte, as the medium prefers. */
  public static final int LARGE_BUFFER = 1 << 20;

  private static final int SMALL_BUFFER = 16 * 1024;

  private Streams() {}

  /**
   * Copies {@code in} to {@code out} until end of stream and returns the bytes copied.
   *
   * @param sizeHint the expected size, or -1: small blobs get a small buffer, large ones 1 MiB
   */
  public static long copy(InputStream in, OutputStream out, long sizeHint) throws IOException {
    byte[] buffer = new byte[bufferSize(sizeHint)];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) >= 0) {
      out.write(buffer, 0, n);
      total += n;
    }
    return total;
  }

  static int bufferSize(long sizeHint) {
    if (sizeHint < 0 || sizeHint > LARGE_BUFFER / 2) {
      return LARGE_BUFFER;
    }
    return (int) Math.max(SMALL_BUFFER, Math.min(LARGE_BUFFER, sizeHint + 1));
  }
}
