package org.mailrestore.maildir;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A stream that counts its bytes and checks them once, at its end. */
abstract class CheckedAtEnd extends FilterInputStream {

  private long count;
  private boolean checked;

  CheckedAtEnd(InputStream in) {
    super(in);
  }

  /** Called once, at end of stream, with the bytes read. */
  abstract void check(long count) throws IOException;

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b < 0) {
      end();
    } else {
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    if (n < 0) {
      end();
    } else {
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(n);
    count += skipped;
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  private void end() throws IOException {
    if (!checked) {
      checked = true;
      check(count);
    }
  }
}
