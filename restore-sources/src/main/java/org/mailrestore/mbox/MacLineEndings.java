package org.mailrestore.mbox;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * An mbox whose lines end in a lone CR, as classic Mac OS mail clients (Eudora, Claris Emailer)
 * wrote them, read as one whose lines end in LF: each CR not followed by LF becomes LF, a CRLF
 * stays. The length does not change, so a Content-Length still leads where it did. Without this the
 * whole file is one line, and its first separator line would swallow every message.
 */
final class MacLineEndings extends InputStream {

  private final InputStream in;
  private int held = -1; // the byte read after a CR at the end of a read, for the next one

  private MacLineEndings(InputStream in) {
    this.in = in;
  }

  /**
   * The file's stream, translated when its first line ends in a lone CR (a file whose first line
   * ends in LF or CRLF is read as it is). Its first bytes are read here to tell; reads then pass
   * through as the stream gives them, and a stream cut short in those first bytes fails after them,
   * as it would have.
   */
  static InputStream of(InputStream raw) throws IOException {
    byte[] head = new byte[SeparatorLine.MAX_LENGTH + 1];
    int n = 0;
    InputStream rest = raw;
    try {
      for (int r; n < head.length && (r = raw.read(head, n, head.length - n)) >= 0; ) {
        n += r;
      }
    } catch (IOException e) {
      if (n == 0) {
        raw.close();
        throw e;
      }
      rest = failing(raw, e);
    }
    InputStream whole = new SequenceInputStream(new ByteArrayInputStream(head, 0, n), rest);
    return firstLineEndsInCr(head, n) ? new MacLineEndings(whole) : whole;
  }

  private static boolean firstLineEndsInCr(byte[] head, int n) {
    for (int i = 0; i < n; i++) {
      if (head[i] == '\n') {
        return false;
      }
      if (head[i] == '\r') {
        return i + 1 < n && head[i + 1] != '\n';
      }
    }
    return false;
  }

  /** A stream that fails as {@code raw} did, when read again. */
  private static InputStream failing(InputStream raw, IOException e) {
    return new FilterInputStream(raw) {
      @Override
      public int read() throws IOException {
        throw e;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        throw e;
      }
    };
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int n = 0;
    if (held >= 0) {
      b[off] = (byte) held;
      held = -1;
      n = 1;
    }
    if (n < len) {
      int r = in.read(b, off + n, len - n);
      if (r < 0 && n == 0) {
        return -1;
      }
      n += Math.max(r, 0);
    }
    int end = off + n;
    for (int i = off; i < end; i++) {
      if (b[i] == '\r') {
        int next;
        if (i + 1 < end) {
          next = b[i + 1];
        } else {
          next = in.read();
          held = next;
        }
        if (next != '\n') {
          b[i] = '\n';
        }
      }
    }
    return n;
  }

  @Override
  public int available() throws IOException {
    return (held >= 0 ? 1 : 0) + in.available();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
