package org.mailrestore.zimbra;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * One archive file (local or in a bucket), opened as a stream of records: gzip detected by its
 * magic bytes (a plain {@code .tar} works too), never unpacked to disk, the compressed bytes
 * counted so that a truncation is reported with the place the file ends.
 *
 * @param name the file's name, for messages
 * @param opener opens the file's raw bytes from the start
 */
record ArchiveFile(String name, Opener opener) {

  /** Opens a file's bytes. */
  @FunctionalInterface
  interface Opener {
    InputStream open() throws IOException;
  }

  private static final int BUFFER = 1 << 16;

  /** The archive's records, from the start. */
  ArchiveRecords records() throws IOException {
    Counting raw = new Counting(opener.open());
    InputStream in = new BufferedInputStream(raw, BUFFER);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    InputStream tar =
        b1 == 0x1f && b2 == 0x8b ? new ReadAhead(new GZIPInputStream(in, BUFFER), name) : in;
    return new ArchiveRecords(new TarReader(tar), raw::count);
  }

  /** Counts the bytes read from the file. */
  private static final class Counting extends FilterInputStream {
    private long count;

    Counting(InputStream in) {
      super(in);
    }

    long count() {
      return count;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
