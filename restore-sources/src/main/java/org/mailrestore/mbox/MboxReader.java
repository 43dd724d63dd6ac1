package org.mailrestore.mbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits an mbox stream into its messages, one pass, bounded memory: a {@code From } line starts a
 * message when it has the form of a separator ({@code From <sender> <date>}, or the one-word form
 * of the file's first separator, such as {@code From -}); another {@code From } line is text a
 * writer failed to quote. The line ending before the next separator (and at the end of the file)
 * belongs to the mbox and is removed; {@code >From } quoting is undone as the dialect says; in the
 * Content-Length dialects a message is as long as its header says, when the header leads exactly to
 * the next separator, and that header (the writer's: the last of the header block) is removed.
 */
final class MboxReader implements AutoCloseable {

  private static final byte[] FROM = "From ".getBytes(StandardCharsets.US_ASCII);

  /** One message's place and separator line. */
  record Start(long offset, String separator) {}

  /** Text before the file's first separator, passed over: where it starts, how many bytes. */
  record Leading(long offset, long length) {}

  private final InputStream in;
  private final MboxDialect dialect;
  private final byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;
  private long consumed; // file offset of buffer[0]
  private boolean eof;
  private Start next; // the separator already read: the next message's start
  private boolean started;
  private SeparatorLine.Rule separators; // learnt from the first separator
  private boolean lineStart =
      true; // the position is at the start of a line (not inside a long one)
  private long keep = -1; // a file offset the buffer must keep while looking ahead, or -1
  private Leading leading; // not yet taken

  /**
   * @param dialect resolved: not {@link MboxDialect#AUTO}
   */
  MboxReader(InputStream in, MboxDialect dialect) {
    this.in = in;
    this.dialect = dialect;
  }

  /**
   * Reads the next message into {@code message}.
   *
   * @return where it starts and its separator line; null at the end of the file
   * @throws NotMboxException when the file neither starts with a {@code From } line nor has a
   *     separator line after text near its start
   */
  Start next(MessageBuffer message) throws IOException {
    if (!started) {
      started = true;
      if (!findFirstSeparator()) {
        return null;
      }
      if (lineLength() > SeparatorLine.MAX_LENGTH) {
        // Read as a separator, it would take the whole file with it.
        throw new NotMboxException(
            "its first line is longer than a separator line ("
                + SeparatorLine.MAX_LENGTH
                + " bytes): not an mbox file, or its lines do not end in LF, CRLF or CR");
      }
      next = readSeparator();
      separators = new SeparatorLine.Rule(next.separator());
    }
    if (next == null) {
      return null;
    }
    Start start = next;
    next = null;
    message.reset();
    long contentLength = -1;
    byte[] heldLength = null; // a Content-Length line, kept back until it proves the last header
    boolean inHeaders = true;
    while (true) {
      if (available(1) == 0) {
        writeHeld(heldLength, message);
        message.trimLineEnding();
        return start;
      }
      if (inHeaders) {
        int lineLength = lineLength();
        if (isBlank(lineLength)) {
          inHeaders = false;
          if (heldLength == null) {
            contentLength = -1;
          }
          // the last header, when it is a Content-Length, is the mbox writer's: not the message's
          copy(lineLength, 0, message);
          if (contentLength >= 0 && readBody(contentLength, message)) {
            return start;
          }
          continue;
        }
        if (startsWith(FROM) && isSeparator()) {
          writeHeld(heldLength, message);
          message.trimLineEnding();
          next = readSeparator();
          return start;
        }
        writeHeld(heldLength, message);
        heldLength = null;
        if (dialect.usesContentLength()) {
          long cl = contentLength(lineLength);
          if (cl >= 0) {
            contentLength = cl;
            heldLength = Arrays.copyOfRange(buffer, position, position + lineLength);
            position += lineLength;
            continue;
          }
        }
        copy(lineLength, 0, message);
        continue;
      }
      int quotes = quotes();
      if (quotes == 0 && startsWith(FROM) && isSeparator()) {
        message.trimLineEnding();
        next = readSeparator();
        return start;
      }
      int lineLength = lineLength();
      copy(lineLength, quotes > 0 && dialect.unquotes(quotes) ? 1 : 0, message);
    }
  }

  /**
   * The text before the file's first separator when it does not start with one, once: null when
   * there is none, or it was taken.
   */
  Leading takeLeading() {
    Leading l = leading;
    leading = null;
    return l;
  }

  /**
   * Moves to the file's first separator, past its blank start and any text before it; false when
   * the file holds nothing else.
   */
  private boolean findFirstSeparator() throws IOException {
    int head = Math.min(available(SeparatorLine.MAX_LEADING), SeparatorLine.MAX_LEADING);
    int end = position + head;
    int text = SeparatorLine.pastBlankStart(buffer, position, end);
    if (text == end && head < SeparatorLine.MAX_LEADING) {
      return false;
    }
    int at = SeparatorLine.first(buffer, text, end);
    if (at < 0) {
      throw new NotMboxException(
          "it does not start with a \"From \" line, nor has one of a separator's form in its first "
              + (SeparatorLine.MAX_LEADING >> 10)
              + " KiB: not an mbox file");
    }
    if (at > text) {
      leading = new Leading(consumed + text, at - text);
    }
    position = at;
    lineStart = true;
    return true;
  }

  /**
   * A body of {@code length} bytes (lines unquoted as the dialect says) when the bytes after it are
   * the next separator or the end of the file. A header that lies is found before anything is read
   * when the body fits the buffer (false: the message is read line by line instead), else after
   * (false: the rest of the message, up to the next separator, is read line by line).
   */
  private boolean readBody(long length, MessageBuffer message) throws IOException {
    if (length < buffer.length - 64 && available((int) length + 64) >= length) {
      long start = consumed + position;
      long outer = keep;
      keep = start;
      position += (int) length;
      boolean fits = endsThere();
      position = (int) (start - consumed);
      keep = outer;
      if (!fits) {
        return false;
      }
    }
    long remaining = length;
    while (remaining > 0 && available(1) > 0) {
      int lineLength = (int) Math.min(lineLength(), remaining);
      int quotes = quotes();
      copy(lineLength, quotes > 0 && dialect.unquotes(quotes) ? 1 : 0, message);
      remaining -= lineLength;
    }
    if (remaining == 0 && endsThere()) {
      skipLineEndings();
      if (available(1) > 0) {
        next = readSeparator();
      }
      return true;
    }
    return false;
  }

  /**
   * Whether the mbox's blank lines, then a separator or the end of the file, are at the position.
   */
  private boolean endsThere() throws IOException {
    long start = consumed + position;
    long outer = keep;
    keep = outer >= 0 ? Math.min(outer, start) : start;
    boolean savedLineStart = lineStart;
    skipLineEndings();
    boolean ends = available(1) == 0 || startsWith(FROM); // where the length says: trusted
    position = (int) (start - consumed);
    lineStart = savedLineStart;
    keep = outer;
    return ends;
  }

  private void skipLineEndings() throws IOException {
    for (int i = 0; i < 2; i++) {
      if (available(2) >= 2 && buffer[position] == '\r' && buffer[position + 1] == '\n') {
        position += 2;
      } else if (available(1) >= 1 && buffer[position] == '\n') {
        position++;
      }
    }
    lineStart = true;
  }

  private static void writeHeld(byte[] held, MessageBuffer message) throws IOException {
    if (held != null) {
      message.write(held, 0, held.length);
    }
  }

  /** The Content-Length of a header line, or -1. */
  private long contentLength(int lineLength) {
    String line =
        new String(buffer, position, Math.min(lineLength, 200), StandardCharsets.ISO_8859_1);
    if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
      try {
        return Long.parseLong(line.substring(15).strip());
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  /** Whether the {@code From } line at the position separates messages, by the file's rule. */
  private boolean isSeparator() throws IOException {
    int lineLength = lineLength();
    return lineLength <= SeparatorLine.MAX_LENGTH && separators.separates(text(lineLength));
  }

  /** Reads the separator line at the position. */
  private Start readSeparator() throws IOException {
    long offset = consumed + position;
    int lineLength = lineLength();
    String line = text(Math.min(lineLength, SeparatorLine.MAX_LENGTH)).strip();
    skipLine();
    return new Start(offset, line);
  }

  private String text(int length) {
    int end = position + length;
    while (end > position && (buffer[end - 1] == '\n' || buffer[end - 1] == '\r')) {
      end--;
    }
    return new String(buffer, position, end - position, StandardCharsets.ISO_8859_1);
  }

  private boolean isBlank(int lineLength) {
    return (lineLength == 1 && buffer[position] == '\n')
        || (lineLength == 2 && buffer[position] == '\r' && buffer[position + 1] == '\n');
  }

  /** How many {@code >} start the line, when {@code From } follows them; else 0. */
  private int quotes() throws IOException {
    if (!lineStart) {
      return 0;
    }
    int n = 0;
    while (available(n + 1) > n && buffer[position + n] == '>') {
      n++;
      if (n > 1000) {
        return 0;
      }
    }
    if (n == 0 || available(n + FROM.length) < n + FROM.length) {
      return 0;
    }
    for (int i = 0; i < FROM.length; i++) {
      if (buffer[position + n + i] != FROM[i]) {
        return 0;
      }
    }
    return n;
  }

  private boolean startsWith(byte[] prefix) throws IOException {
    if (!lineStart || available(prefix.length) < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (buffer[position + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The length of the line at the position, its line ending included, as far as the buffer can hold
   * it (a longer line is taken in parts: only its start matters).
   */
  private int lineLength() throws IOException {
    int scanned = 0;
    while (true) {
      for (int i = position + scanned; i < limit; i++) {
        if (buffer[i] == '\n') {
          return i - position + 1;
        }
      }
      scanned = limit - position;
      if (eof || available(scanned + 1) == scanned) {
        return scanned; // the last line, or the part of a very long one the buffer holds
      }
    }
  }

  /** Copies the line's bytes to the message, leaving out its first {@code skip} bytes. */
  private void copy(int lineLength, int skip, MessageBuffer message) throws IOException {
    message.write(buffer, position + skip, lineLength - skip);
    lineStart = lineLength > 0 && buffer[position + lineLength - 1] == '\n';
    position += lineLength;
  }

  private void skipLine() throws IOException {
    while (true) {
      int n = lineLength();
      boolean ends = n > 0 && buffer[position + n - 1] == '\n';
      position += n;
      if (ends || n == 0 || available(1) == 0) {
        lineStart = true;
        return;
      }
    }
  }

  /** Makes at least {@code n} bytes available from the position, when the file has them. */
  private int available(int n) throws IOException {
    if (limit - position >= n || eof) {
      return limit - position;
    }
    int from = keep >= 0 ? (int) Math.min(position, keep - consumed) : position;
    if (from > 0) {
      System.arraycopy(buffer, from, buffer, 0, limit - from);
      consumed += from;
      limit -= from;
      position -= from;
    }
    while (limit - position < n && limit < buffer.length && !eof) {
      int r = in.read(buffer, limit, buffer.length - limit);
      if (r < 0) {
        eof = true;
      } else {
        limit += r;
      }
    }
    return limit - position;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** The file is not an mbox. */
  static final class NotMboxException extends IOException {
    NotMboxException(String message) {
      super(message);
    }
  }
}
