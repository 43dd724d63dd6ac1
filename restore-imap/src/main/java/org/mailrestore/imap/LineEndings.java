package org.mailrestore.imap;

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

  /**
   * Converts a message in one pass over its bytes (three passes cost a tenth of an IMAP restore's
   * CPU): where the bare line feeds are, then a copy in runs between them.
   */
  static Converted convert(byte[] message) {
    int[] bareAt = new int[16];
    int[] bareLine = new int[16];
    int bare = 0;
    int lines = 0;
    for (int i = 0; i < message.length; i++) {
      if (message[i] == '\n') {
        if (i == 0 || message[i - 1] != '\r') {
          if (bare == bareAt.length) {
            bareAt = Arrays.copyOf(bareAt, bare * 2);
            bareLine = Arrays.copyOf(bareLine, bare * 2);
          }
          bareAt[bare] = i;
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
