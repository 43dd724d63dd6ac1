package org.mailrestore.imap;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * How a message's lines end. IMAP carries messages with CRLF (RFC 3501 §2.3.1.1), so a Maildir or
 * mbox message with bare LF is sent as CRLF and turned back into LF when read back: the round trip
 * stays byte for byte. A message that mixes both (common: most of the Enron corpus has CRLF headers
 * and LF bodies) keeps a bit per line ending, set where it was bare, to be turned back the same
 * way.
 *
 * <p>A bare CR (old Macintosh mail, or a CRLF message converted once too often: {@code CR CR LF})
 * is sent as CRLF too, and two bits per line ending say which of the three it was ({@link #CR}).
 * Sent as it is, servers change it: Dovecot stores {@code CR CR LF} as CRLF and drops a CR that
 * ends a message; Cyrus refuses the message.
 */
enum LineEndings {
  CRLF,
  LF,
  MIXED,
  /** Some line endings were a bare CR: two bits per line ending, {@code 01} LF, {@code 10} CR. */
  CR;

  /**
   * A message as IMAP carries it, and what turns it back.
   *
   * @param crlf the bytes to send: every line ending CRLF (the message itself when it had no bare
   *     LF or CR)
   * @param bareLines for {@link #MIXED}, a bit per line ending, set where it was a bare LF; for
   *     {@link #CR}, two bits per line ending; else null
   */
  record Converted(LineEndings endings, byte[] crlf, byte[] bareLines) {}

  /** A message's bytes eight at a time, in the order they stand. */
  static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;
  private static final long CARRIAGE_RETURNS = 0x0D0D0D0D0D0D0D0DL;
  private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;

  /**
   * Converts a message in one pass over its bytes (three passes cost a tenth of an IMAP restore's
   * CPU): where the bare line endings are, then a copy in runs between them, each completed to
   * CRLF. The pass reads eight bytes at a time: under the client compiler the launcher runs, a loop
   * byte by byte cost 6 us per message of the Enron corpus, about 3 % of an IMAP restore's CPU.
   */
  static Converted convert(byte[] message) {
    Scan scan = new Scan();
    scan.run(message, message.length);
    if (scan.bare == 0) {
      return new Converted(CRLF, message, null);
    }
    byte[] out = new byte[message.length + scan.bare];
    scan.copy(message, message.length, out);
    Marks marks = new Marks();
    scan.markIn(marks, 0);
    Kept kept = marks.kept(scan.lines);
    return new Converted(kept.endings(), out, kept.bareLines());
  }

  /** How a message's lines ended: what turns its CRLF form back ({@link Converted}'s halves). */
  record Kept(LineEndings endings, byte[] bareLines) {}

  /** Where the bare line endings of a run of bytes are, found in one pass. */
  private static final class Scan {
    int[] insertAt = new int[16]; // where a byte goes in: a CR before a bare LF, an LF after a CR
    int[] bareLine = new int[16]; // the line each ends, negative (-1 - line) for a bare CR
    int bare;
    int lines;

    /** Scans {@code length} bytes; a CR at their end counts as bare. */
    void run(byte[] message, int length) {
      bare = 0;
      lines = 0;
      for (int i = 0; i < length; i += 8) {
        long ends = i + 8 <= length ? lineEnds(message, i) : lineEndsAtEnd(message, i, length);
        for (; ends != 0; ends &= ends - 1) {
          int at = i + (Long.numberOfTrailingZeros(ends) >>> 3);
          boolean feed = message[at] == '\n';
          boolean halfOfCrlf =
              feed ? at > 0 && message[at - 1] == '\r' : at + 1 < length && message[at + 1] == '\n';
          if (halfOfCrlf) {
            lines += feed ? 1 : 0; // one line ending, counted at its LF
            continue;
          }
          if (bare == insertAt.length) {
            insertAt = Arrays.copyOf(insertAt, bare * 2);
            bareLine = Arrays.copyOf(bareLine, bare * 2);
          }
          insertAt[bare] = feed ? at : at + 1;
          bareLine[bare++] = feed ? lines : -1 - lines;
          lines++;
        }
      }
    }

    /** The run's CRLF form into {@code out}, which holds {@code length + bare} bytes. */
    void copy(byte[] message, int length, byte[] out) {
      int n = 0;
      int from = 0;
      for (int k = 0; k < bare; k++) {
        int at = insertAt[k];
        System.arraycopy(message, from, out, n, at - from);
        n += at - from;
        out[n++] = bareLine[k] >= 0 ? (byte) '\r' : (byte) '\n';
        from = at;
      }
      System.arraycopy(message, from, out, n, length - from);
    }

    /** Marks the run's bare line endings, its first line being the message's {@code firstLine}. */
    void markIn(Marks marks, long firstLine) {
      for (int k = 0; k < bare; k++) {
        int line = bareLine[k];
        marks.mark(firstLine + (line >= 0 ? line : -1 - line), line >= 0);
      }
    }
  }

  /** The bare line endings of a whole message, by line. */
  private static final class Marks {
    private final BitSet feeds = new BitSet();
    private final BitSet returns = new BitSet();
    private long bare;

    void mark(long line, boolean feed) {
      if (line >= Integer.MAX_VALUE / 2) {
        throw new IllegalArgumentException("more than a billion lines in one message");
      }
      (feed ? feeds : returns).set((int) line);
      bare++;
    }

    Kept kept(long lines) {
      if (bare == 0) {
        return new Kept(CRLF, null);
      }
      if (returns.isEmpty()) {
        return bare == lines ? new Kept(LF, null) : new Kept(MIXED, feeds.toByteArray());
      }
      BitSet bits = new BitSet();
      feeds.stream().forEach(line -> bits.set(2 * line));
      returns.stream().forEach(line -> bits.set(2 * line + 1));
      return new Kept(CR, bits.toByteArray());
    }
  }

  /**
   * Converts a message as it streams, for one too large to hold whole: its CRLF form goes to {@code
   * out}, and {@link #finish} says how its lines ended. Works in runs of a megabyte, a CR that ends
   * a run held back for the next (it may be half of a CRLF).
   */
  static final class Converting extends OutputStream {
    private final OutputStream out;
    private final Scan scan = new Scan();
    private final Marks marks = new Marks();
    private final byte[] run;
    private byte[] converted = new byte[0];
    private int held;
    private long lines;
    private long written;

    Converting(OutputStream out) {
      this(out, 1 << 20);
    }

    /** With runs of {@code runBytes}, at least two (a CR held back, and the next byte). */
    Converting(OutputStream out, int runBytes) {
      if (runBytes < 2) {
        throw new IllegalArgumentException("runs of at least two bytes");
      }
      this.out = out;
      this.run = new byte[runBytes];
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      while (length > 0) {
        int n = Math.min(length, run.length - held);
        System.arraycopy(bytes, offset, run, held, n);
        held += n;
        offset += n;
        length -= n;
        if (held == run.length) {
          boolean crLast = run[held - 1] == '\r';
          convertRun(crLast ? held - 1 : held);
          if (crLast) {
            run[0] = '\r';
            held = 1;
          }
        }
      }
    }

    private void convertRun(int length) throws IOException {
      scan.run(run, length);
      if (converted.length < length + scan.bare) {
        converted = new byte[length + scan.bare + (length >> 4)];
      }
      scan.copy(run, length, converted);
      out.write(converted, 0, length + scan.bare);
      scan.markIn(marks, lines);
      lines += scan.lines;
      written += length + scan.bare;
      held = 0;
    }

    /** Converts what is left (a CR at the end is bare) and says how the lines ended. */
    Kept finish() throws IOException {
      convertRun(held);
      out.flush();
      return marks.kept(lines);
    }

    /** The bytes written to {@code out}: the CRLF form's size. */
    long written() {
      return written;
    }
  }

  /** The high bit set in each byte of the eight from {@code i} that is a CR or an LF. */
  private static long lineEnds(byte[] message, int i) {
    long word = (long) WORDS.get(message, i);
    return zeroBytes(word ^ LINE_FEEDS) | zeroBytes(word ^ CARRIAGE_RETURNS);
  }

  /** The high bit of each byte of {@code x} that is zero: no carry crosses bytes, no false hits. */
  static long zeroBytes(long x) {
    return ~(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x | LOW_SEVEN_BITS);
  }

  /** As {@link #lineEnds}, for the last bytes, fewer than eight. */
  private static long lineEndsAtEnd(byte[] message, int i, int length) {
    long ends = 0;
    for (int j = i; j < length; j++) {
      if (message[j] == '\n' || message[j] == '\r') {
        ends |= 0x80L << (8 * (j - i));
      }
    }
    return ends;
  }

  /**
   * The message as it was in the source, from what the server returns.
   *
   * @param bareLines for {@link #MIXED} and {@link #CR}, what {@link Converted#bareLines} recorded
   */
  byte[] restore(byte[] fromServer, byte[] bareLines) {
    if (this == CRLF || (this != LF && bareLines == null)) {
      return fromServer;
    }
    Restorer restorer = new Restorer(this, bareLines);
    byte[] out = new byte[fromServer.length];
    int n = restorer.run(fromServer, 0, fromServer.length, out, 0);
    n = restorer.end(out, n);
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /**
   * The message as it was in the source, as it streams from the server: for one too large to hold
   * whole.
   */
  InputStream restoring(InputStream fromServer, byte[] bareLines) {
    if (this == CRLF || (this != LF && bareLines == null)) {
      return fromServer;
    }
    Restorer restorer = new Restorer(this, bareLines);
    return new InputStream() {
      private final byte[] in = new byte[1 << 16];
      private final byte[] out = new byte[in.length + 1];
      private int at;
      private int end;
      private boolean done;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        while (at == end) {
          if (done) {
            return -1;
          }
          int n = fromServer.read(in);
          at = 0;
          if (n < 0) {
            end = restorer.end(out, 0);
            done = true;
          } else {
            end = restorer.run(in, 0, n, out, 0);
          }
        }
        int n = Math.min(len, end - at);
        System.arraycopy(out, at, b, off, n);
        at += n;
        return n;
      }

      @Override
      public void close() throws IOException {
        fromServer.close();
      }
    };
  }

  /**
   * Turns CRLF back into what the source had, in runs: a CR that ends a run waits for the next
   * byte, which says whether it was half of a CRLF.
   */
  private static final class Restorer {
    private final LineEndings endings;
    private final @Nullable BitSet bare;
    private long line;
    private boolean heldCr;

    Restorer(LineEndings endings, byte[] bareLines) {
      this.endings = endings;
      this.bare = endings == LF ? null : BitSet.valueOf(bareLines);
    }

    /** Restores {@code in[from, from + length)} into {@code out} at {@code n}; the new end. */
    int run(byte[] in, int from, int length, byte[] out, int n) {
      for (int i = from; i < from + length; i++) {
        byte b = in[i];
        if (heldCr) {
          heldCr = false;
          if (b == '\n') {
            if (endings == CR && bare.get(bit(true))) {
              out[n++] = '\r'; // a bare CR: the LF after it was ours
              line++;
              continue;
            }
            if (bare != null && !bare.get(bit(false))) {
              out[n++] = '\r'; // a CRLF of the source's own
            } // else a bare LF: the CR before it was ours
          } else {
            out[n++] = '\r';
          }
        }
        if (b == '\r') {
          heldCr = true;
          continue;
        }
        if (b == '\n') {
          line++;
        }
        out[n++] = b;
      }
      return n;
    }

    /** The end of the message: a CR held is the message's last byte. */
    int end(byte[] out, int n) {
      if (heldCr) {
        heldCr = false;
        out[n++] = '\r';
      }
      return n;
    }

    private int bit(boolean carriageReturn) {
      long at = endings == CR ? 2 * line + (carriageReturn ? 1 : 0) : line;
      return at > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) at;
    }
  }
}
