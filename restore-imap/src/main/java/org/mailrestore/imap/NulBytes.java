package org.mailrestore.imap;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * NUL bytes, which IMAP does not carry in a message (RFC 3501 §4.3.1): Dovecot stores the message
 * but hands each NUL back as {@code 0x80}, Cyrus refuses the message. They are sent as {@code 0x80}
 * and their places recorded, to be turned back when the message is read back: the round trip stays
 * byte for byte on either (decision 0072). Places count from the start of the message as sent
 * (CRLF), and are kept as the gaps between them, each a variable-length number.
 */
final class NulBytes {

  static final byte SENT_AS = (byte) 0x80;

  private NulBytes() {}

  /**
   * A message as it is sent.
   *
   * @param bytes the message without NUL bytes (the one given, when it had none)
   * @param places where the NULs were, or null when there were none
   */
  record Replaced(byte[] bytes, byte[] places) {}

  /** The message with each NUL sent as {@code 0x80}: a copy, when there is any. */
  static Replaced replace(byte[] message) {
    int first = next(message, 0, message.length);
    if (first < 0) {
      return new Replaced(message, null);
    }
    byte[] sent = message.clone();
    Places places = new Places();
    for (int at = first; at >= 0; at = next(message, at + 1, message.length)) {
      sent[at] = SENT_AS;
      places.add(at);
    }
    return new Replaced(sent, places.bytes());
  }

  /** The message as it was, from the server's bytes (changed in place), by the places recorded. */
  static byte[] restore(byte[] fromServer, byte[] places) {
    if (places == null) {
      return fromServer;
    }
    Gaps gaps = new Gaps(places);
    for (long at = gaps.next(); at < fromServer.length; at = gaps.next()) {
      if (fromServer[(int) at] == SENT_AS) {
        fromServer[(int) at] = 0;
      }
    }
    return fromServer;
  }

  /** As {@link #restore(byte[], byte[])}, as the message streams from the server. */
  static InputStream restoring(InputStream fromServer, byte[] places) {
    if (places == null) {
      return fromServer;
    }
    Gaps gaps = new Gaps(places);
    return new FilterInputStream(fromServer) {
      private long next = gaps.next();
      private long offset;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        for (; n > 0 && next < offset + n; next = gaps.next()) {
          int k = off + (int) (next - offset);
          if (b[k] == SENT_AS) {
            b[k] = 0;
          }
        }
        offset += Math.max(n, 0);
        return n;
      }
    };
  }

  /**
   * Sends what is written through with each NUL as {@code 0x80}, recording where: for a message
   * converted as it streams into a file.
   */
  static final class Replacing extends FilterOutputStream {
    private final Places places = new Places();
    private long offset;

    Replacing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int first = next(b, off, off + len);
      if (first < 0) {
        out.write(b, off, len);
      } else {
        byte[] sent = Arrays.copyOfRange(b, off, off + len);
        for (int at = first; at >= 0; at = next(b, at + 1, off + len)) {
          sent[at - off] = SENT_AS;
          places.add(offset + at - off);
        }
        out.write(sent);
      }
      offset += len;
    }

    /** Where the NULs were, or null when there were none. */
    byte[] places() {
      return places.bytes();
    }
  }

  /** The first NUL in {@code bytes[from, to)}, or -1; eight bytes at a time. */
  static int next(byte[] bytes, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long zeros = LineEndings.zeroBytes((long) LineEndings.WORDS.get(bytes, i));
      if (zeros != 0) {
        return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (bytes[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  /** Reads places back from their gaps, in order; {@link Long#MAX_VALUE} after the last. */
  private static final class Gaps {
    private final byte[] gaps;
    private int i;
    private long at;

    Gaps(byte[] gaps) {
      this.gaps = gaps;
    }

    long next() {
      if (i >= gaps.length) {
        return Long.MAX_VALUE;
      }
      long gap = 0;
      int shift = 0;
      byte b;
      do {
        b = gaps[i++];
        gap |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while (b < 0);
      at += gap;
      return at;
    }
  }

  /** Places as gaps, each a variable-length number (seven bits a byte, the high bit: more). */
  private static final class Places {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private long last;

    void add(long place) {
      long gap = place - last;
      last = place;
      while (gap >= 0x80) {
        bytes.write((int) (gap & 0x7f) | 0x80);
        gap >>>= 7;
      }
      bytes.write((int) gap);
    }

    byte[] bytes() {
      return bytes.size() == 0 ? null : bytes.toByteArray();
    }
  }
}
