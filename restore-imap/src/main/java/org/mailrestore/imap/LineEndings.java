package org.mailrestore.imap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.BitSet;

/**
 * How a message's lines end. IMAP carries messages with CRLF (RFC 3501 §2.3.1.1, and Dovecot and
 * Cyrus convert bare LF themselves), so a Maildir or mbox message with bare LF is sent as CRLF and
 * turned back into LF when read back: the round trip stays byte for byte. A message that mixes both
 * (common: most of the Enron corpus has CRLF headers and LF bodies) keeps a bit per line ending,
 * set where it was bare, to be turned back the same way.
 */
enum LineEndings {
  CRLF,
  LF,
  MIXED;

  /**
   * A message as IMAP carries it, and what turns it back.
   *
   * @param crlf the bytes to send: every line ending CRLF (the message itself when it had no bare
   *     LF)
   * @param bareLines for {@link #MIXED}, a bit per line ending, set where it was a bare LF; else
   *     null
   */
  record Converted(LineEndings endings, byte[] crlf, byte[] bareLines) {}

  /** A message's bytes eight at a time, in the order they stand. */
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;
  private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;

  /**
   * Converts a message in one pass over its bytes (three passes cost a tenth of an IMAP restore's
   * CPU): where the bare line feeds are, then a copy in runs between them. The pass reads eight
   * bytes at a time: under the client compiler the launcher runs, a loop byte by byte cost 6 us per
   * message of the Enron corpus, about 3 % of an IMAP restore's CPU.
   */
  static Converted convert(byte[] message) {
    int[] bareAt = new int[16];
    int[] bareLine = new int[16];
    int bare = 0;
    int lines = 0;
    for (int i = 0; i < message.length; i += 8) {
      long feeds = i + 8 <= message.length ? lineFeeds(message, i) : lineFeedsAtEnd(message, i);
      for (; feeds != 0; feeds &= feeds - 1) {
        int at = i + (Long.numberOfTrailingZeros(feeds) >>> 3);
        if (at == 0 || message[at - 1] != '\r') {
          if (bare == bareAt.length) {
            bareAt = Arrays.copyOf(bareAt, bare * 2);
            bareLine = Arrays.copyOf(bareLine, bare * 2);
          }
          bareAt[bare] = at;
          bareLine[bare++] = lines;
        }
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
      int at = bareAt[k];
      System.arraycopy(message, from, out, n, at - from);
      n += at - from;
      out[n++] = '\r';
      from = at;
    }
    System.arraycopy(message, from, out, n, message.length - from);
    if (bare == lines) {
      return new Converted(LF, out, null);
    }
    BitSet bits = new BitSet(lines);
    for (int k = 0; k < bare; k++) {
      bits.set(bareLine[k]);
    }
    return new Converted(MIXED, out, bits.toByteArray());
  }

  /** The high bit set in each byte of the eight from {@code i} that is a line feed. */
  private static long lineFeeds(byte[] message, int i) {
    long x = ((long) WORDS.get(message, i)) ^ LINE_FEEDS;
    // each zero byte of x: no carry crosses from one byte into the next, so no false hits
    return ~(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x | LOW_SEVEN_BITS);
  }

  /** As {@link #lineFeeds}, for the last bytes, fewer than eight. */
  private static long lineFeedsAtEnd(byte[] message, int i) {
    long feeds = 0;
    for (int j = i; j < message.length; j++) {
      if (message[j] == '\n') {
        feeds |= 0x80L << (8 * (j - i));
      }
    }
    return feeds;
  }

  /**
   * The message as it was in the source, from what the server returns.
   *
   * @param bareLines for {@link #MIXED}, what {@link #bareLines} recorded
   */
  byte[] restore(byte[] fromServer, byte[] bareLines) {
    if (this == CRLF || (this == MIXED && bareLines == null)) {
      return fromServer;
    }
    BitSet bare = this == MIXED ? BitSet.valueOf(bareLines) : null;
    byte[] out = new byte[fromServer.length];
    int n = 0;
    int line = 0;
    for (int i = 0; i < fromServer.length; i++) {
      if (fromServer[i] == '\r' && i + 1 < fromServer.length && fromServer[i + 1] == '\n') {
        if (bare == null || bare.get(line)) {
          continue;
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
