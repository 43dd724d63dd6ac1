package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into {@code \n}-terminated lines without decoding them, so each line can be
 * parsed on its own and one bad line does not stop the rest. Lines longer than a limit are skipped
 * (and reported as such) instead of growing memory without bound.
 */
final class LineReader {

  private static final int BUFFER_SIZE = 1 << 20;

  private final InputStream in;
  private final int maxLineLength;
  private final int readSize;
  private byte[] buffer = new byte[BUFFER_SIZE];
  private IOException pending;
  private int start;
  private int end;
  private boolean eof;
  private long lineNumber;

  private int lineStart;
  private int lineLength;
  private boolean tooLong;

  /**
   * @param readSize the most bytes asked of {@code in} per call. A decompressor that fails mid-call
   *     loses what it decoded in that call, so small reads keep a truncated stream's readable part.
   */
  LineReader(InputStream in, int maxLineLength, int readSize) {
    this.in = in;
    this.maxLineLength = maxLineLength;
    this.readSize = readSize;
  }

  /** Advances to the next line; false at end of stream. */
  boolean next() throws IOException {
    tooLong = false;
    int scanFrom = start;
    while (true) {
      int newline = indexOf((byte) '\n', scanFrom, end);
      if (newline >= 0) {
        setLine(start, newline - start);
        start = newline + 1;
        return true;
      }
      if (eof) {
        if (pending != null) {
          // The bytes after the last newline are an incomplete record: report the break instead.
          throw pending;
        }
        if (start < end) {
          setLine(start, end - start);
          start = end;
          return true;
        }
        return false;
      }
      if (end - start >= maxLineLength) {
        skipRestOfLine();
        return true;
      }
      scanFrom = end;
      int scanned = scanFrom - start;
      fill();
      scanFrom = start + scanned;
    }
  }

  private void setLine(int from, int length) {
    lineNumber++;
    lineStart = from;
    lineLength = length > 0 && buffer[from + length - 1] == '\r' ? length - 1 : length;
  }

  private void skipRestOfLine() throws IOException {
    lineNumber++;
    tooLong = true;
    lineLength = 0;
    while (true) {
      int newline = indexOf((byte) '\n', start, end);
      if (newline >= 0) {
        start = newline + 1;
        return;
      }
      start = end;
      if (eof) {
        return;
      }
      fill();
    }
  }

  /** Moves unread bytes to the front, grows the buffer if needed, and reads more. */
  private void fill() throws IOException {
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
      end -= start;
      start = 0;
    }
    if (end == buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, maxLineLength + BUFFER_SIZE));
    }
    try {
      int n = in.read(buffer, end, Math.min(readSize, buffer.length - end));
      if (n < 0) {
        eof = true;
      } else {
        end += n;
      }
    } catch (IOException e) {
      // Deliver the complete lines already read before reporting the failure.
      pending = e;
      eof = true;
    }
  }

  private static int indexOf(byte[] b, byte value, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == value) {
        return i;
      }
    }
    return -1;
  }

  private int indexOf(byte value, int from, int to) {
    return indexOf(buffer, value, from, to);
  }

  byte[] buffer() {
    return buffer;
  }

  int lineStart() {
    return lineStart;
  }

  int lineLength() {
    return lineLength;
  }

  long lineNumber() {
    return lineNumber;
  }

  /** True when the current line exceeded the limit and was skipped; its content is empty. */
  boolean isTooLong() {
    return tooLong;
  }

  boolean isBlank() {
    for (int i = lineStart; i < lineStart + lineLength; i++) {
      byte b = buffer[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
