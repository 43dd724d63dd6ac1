package org.mailrestore.imap;

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

  static LineEndings of(byte[] message) {
    boolean bare = false;
    boolean crlf = false;
    for (int i = 0; i < message.length && !(bare && crlf); i++) {
      if (message[i] == '\n') {
        if (i > 0 && message[i - 1] == '\r') {
          crlf = true;
        } else {
          bare = true;
        }
      }
    }
    return bare ? (crlf ? MIXED : LF) : CRLF;
  }

  /** The message as IMAP carries it: every line ending CRLF. */
  static byte[] toCrlf(byte[] message) {
    int bare = 0;
    for (int i = 0; i < message.length; i++) {
      if (message[i] == '\n' && (i == 0 || message[i - 1] != '\r')) {
        bare++;
      }
    }
    byte[] out = new byte[message.length + bare];
    int n = 0;
    int from = 0; // copied in runs: the bytes between two bare line feeds
    for (int i = 0; i < message.length; i++) {
      if (message[i] == '\n' && (i == 0 || message[i - 1] != '\r')) {
        System.arraycopy(message, from, out, n, i - from);
        n += i - from;
        out[n++] = '\r';
        from = i;
      }
    }
    System.arraycopy(message, from, out, n, message.length - from);
    return out;
  }

  /** A bit per line ending of the message, set where it is a bare LF. */
  static byte[] bareLines(byte[] message) {
    java.util.BitSet bare = new java.util.BitSet();
    int line = 0;
    for (int i = 0; i < message.length; i++) {
      if (message[i] == '\n') {
        if (i == 0 || message[i - 1] != '\r') {
          bare.set(line);
        }
        line++;
      }
    }
    return bare.toByteArray();
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
    java.util.BitSet bare = this == MIXED ? java.util.BitSet.valueOf(bareLines) : null;
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
    return n == out.length ? out : java.util.Arrays.copyOf(out, n);
  }
}
