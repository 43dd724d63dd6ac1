package org.mailrestore.imap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.BitSet;

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
  private static final VarHandle WORDS =
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
    int[] insertAt = new int[16]; // where a byte goes in: a CR before a bare LF, an LF after a CR
    int[] bareLine = new int[16]; // the line each ends, negative (-1 - line) for a bare CR
    int bare = 0;
    int lines = 0;
    boolean carriageReturns = false;
    for (int i = 0; i < message.length; i += 8) {
      long ends = i + 8 <= message.length ? lineEnds(message, i) : lineEndsAtEnd(message, i);
      for (; ends != 0; ends &= ends - 1) {
        int at = i + (Long.numberOfTrailingZeros(ends) >>> 3);
        boolean feed = message[at] == '\n';
        boolean halfOfCrlf =
            feed
                ? at > 0 && message[at - 1] == '\r'
                : at + 1 < message.length && message[at + 1] == '\n';
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
        carriageReturns |= !feed;
        lines++;
      }
    }
    if (bare == 0) {
      return new Converted(CRLF, message, null);
    }
    byte[] out = new byte[message.length + bare];
    int n = 0;
    int from = 0;
    for (int k = 0; k < bare; k++) {
      int at = insertAt[k];
      System.arraycopy(message, from, out, n, at - from);
      n += at - from;
      out[n++] = bareLine[k] >= 0 ? (byte) '\r' : (byte) '\n';
      from = at;
    }
    System.arraycopy(message, from, out, n, message.length - from);
    if (!carriageReturns && bare == lines) {
      return new Converted(LF, out, null);
    }
    BitSet bits = new BitSet(carriageReturns ? 2 * lines : lines);
    for (int k = 0; k < bare; k++) {
      int line = bareLine[k];
      if (!carriageReturns) {
        bits.set(line);
      } else if (line >= 0) {
        bits.set(2 * line);
      } else {
        bits.set(2 * (-1 - line) + 1);
      }
    }
    return new Converted(carriageReturns ? CR : MIXED, out, bits.toByteArray());
  }

  /** The high bit set in each byte of the eight from {@code i} that is a CR or an LF. */
  private static long lineEnds(byte[] message, int i) {
    long word = (long) WORDS.get(message, i);
    return zeroBytes(word ^ LINE_FEEDS) | zeroBytes(word ^ CARRIAGE_RETURNS);
  }

  /** The high bit of each byte of {@code x} that is zero: no carry crosses bytes, no false hits. */
  private static long zeroBytes(long x) {
    return ~(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x | LOW_SEVEN_BITS);
  }

  /** As {@link #lineEnds}, for the last bytes, fewer than eight. */
  private static long lineEndsAtEnd(byte[] message, int i) {
    long ends = 0;
    for (int j = i; j < message.length; j++) {
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
    BitSet bare = this == LF ? null : BitSet.valueOf(bareLines);
    byte[] out = new byte[fromServer.length];
    int n = 0;
    int line = 0;
    for (int i = 0; i < fromServer.length; i++) {
      if (fromServer[i] == '\r' && i + 1 < fromServer.length && fromServer[i + 1] == '\n') {
        if (this == CR && bare.get(2 * line + 1)) {
          out[n++] = '\r'; // a bare CR: the LF after it was ours
          i++;
          line++;
          continue;
        }
        if (bare == null || bare.get(this == CR ? 2 * line : line)) {
          continue; // a bare LF: the CR before it was ours
        }
      }
      if (fromServer[i] == '\n') {
        line++;
      }
      out[n++] = fromServer[i];
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }
}
