package org.mailrestore.backup.generate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer for composing messages without intermediate strings. */
final class ByteText {

  private static final byte[] CRLF = {'\r', '\n'};

  private byte[] buffer;
  private int length;

  ByteText(int capacity) {
    buffer = new byte[Math.max(64, capacity)];
  }

  ByteText append(byte[] bytes) {
    return append(bytes, 0, bytes.length);
  }

  ByteText append(byte[] bytes, int offset, int count) {
    ensure(count);
    System.arraycopy(bytes, offset, buffer, length, count);
    length += count;
    return this;
  }

  ByteText append(String s) {
    return append(s.getBytes(StandardCharsets.UTF_8));
  }

  ByteText append(byte b) {
    ensure(1);
    buffer[length++] = b;
    return this;
  }

  ByteText crlf() {
    return append(CRLF);
  }

  ByteText header(String name, String value) {
    return append(name).append(": ").append(value).crlf();
  }

  int length() {
    return length;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buffer, length);
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
    }
  }
}
