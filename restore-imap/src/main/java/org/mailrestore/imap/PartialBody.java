package org.mailrestore.imap;

import java.io.IOException;
import java.io.InputStream;

/**
 * A message's bytes as the server holds them, fetched a slice at a time ({@code
 * BODY.PEEK[]<offset.length>}, RFC 3501 §6.4.5): one too large to fetch whole. Reads from the
 * folder the session has selected.
 */
final class PartialBody extends InputStream {

  /** Bytes asked for at once. */
  static final int SLICE = 8 << 20;

  private final UserSession session;
  private final long uid;
  private byte[] slice = new byte[0];
  private int at;
  private long offset;
  private boolean ended;

  PartialBody(UserSession session, long uid) {
    this.session = session;
    this.uid = uid;
  }

  @Override
  public int read() throws IOException {
    return fill() ? slice[at++] & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, slice.length - at);
    System.arraycopy(slice, at, b, off, n);
    at += n;
    return n;
  }

  /** Whether bytes are left in the slice, fetching the next when it is spent. */
  private boolean fill() throws IOException {
    while (at == slice.length) {
      if (ended) {
        return false;
      }
      slice = next();
      at = 0;
      offset += slice.length;
      ended = slice.length < SLICE;
    }
    return true;
  }

  private byte[] next() throws IOException {
    Command fetch =
        Command.of("UID FETCH")
            .text(" " + uid + " (UID BODY.PEEK[]<" + offset + "." + SLICE + ">)");
    for (Response r : session.ok(fetch).untagged()) {
      if (r.is("FETCH")) {
        ServerMessage m = ServerMessage.of(r);
        if (m.uid() == uid) {
          return m.body() == null ? new byte[0] : m.body();
        }
      }
    }
    throw new IOException("message " + uid + " is no longer on the server");
  }
}
