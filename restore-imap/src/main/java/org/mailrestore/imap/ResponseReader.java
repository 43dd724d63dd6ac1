package org.mailrestore.imap;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads server responses (RFC 3501 §7, §9) from a buffered stream: status responses with their
 * codes, untagged data as nested tokens, literals read whole. Atoms may hold bracketed sections
 * with spaces ({@code BODY[HEADER.FIELDS (MESSAGE-ID)]}), as FETCH responses name them.
 */
final class ResponseReader {

  /** Bounds what a broken or hostile server can make us hold. */
  private static final long MAX_LITERAL = 1L << 30;

  private static final int MAX_TEXT = 64 << 20;
  private static final Set<String> STATUS = Set.of("OK", "NO", "BAD", "BYE", "PREAUTH");

  private final InputStream in;
  private int peeked = -2;
  private long textBytes;

  ResponseReader(InputStream in) {
    this.in = in;
  }

  Response read() throws IOException {
    textBytes = 0;
    String tag = atom();
    if (tag.equals("+")) {
      skipSpace();
      return new Response("+", null, null, restOfLine(), List.of());
    }
    expect(' ');
    if (!tag.equals("*")) {
      String status = atom().toUpperCase(Locale.ROOT);
      return status(tag, status);
    }
    List<Object> data = new ArrayList<>();
    String first = atom();
    String upper = first.toUpperCase(Locale.ROOT);
    if (STATUS.contains(upper)) {
      return status("*", upper);
    }
    data.add(first);
    while (peek() == ' ') {
      next();
      data.add(token());
    }
    endOfLine();
    return new Response("*", null, null, null, data);
  }

  private Response status(String tag, String status) throws IOException {
    String code = null;
    if (peek() == ' ') {
      next();
      if (peek() == '[') {
        next();
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        int c;
        while ((c = next()) != ']' || depth > 0) {
          if (c == '\r' || c == '\n') {
            throw new IOException("unterminated response code: [" + sb);
          }
          depth += c == '[' ? 1 : c == ']' ? -1 : 0;
          sb.append((char) c);
        }
        code = sb.toString();
        if (peek() == ' ') {
          next();
        }
      }
    }
    return new Response(tag, status, code, restOfLine(), List.of());
  }

  private Object token() throws IOException {
    int c = peek();
    if (c == '(') {
      return list();
    }
    if (c == '"') {
      return quoted();
    }
    if (c == '{') {
      return literal();
    }
    String atom = atom();
    if (atom.equalsIgnoreCase("NIL")) {
      return null;
    }
    return atom;
  }

  private List<Object> list() throws IOException {
    expect('(');
    List<Object> items = new ArrayList<>();
    while (peek() != ')') {
      if (peek() == ' ') {
        next();
        continue;
      }
      if (peek() == '\r' || peek() == '\n') {
        throw new IOException("unterminated list in a response");
      }
      items.add(token());
    }
    next();
    return items;
  }

  private String quoted() throws IOException {
    expect('"');
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int c;
    while ((c = next()) != '"') {
      if (c == '\\') {
        c = next();
      } else if (c == '\r' || c == '\n') {
        throw new IOException("unterminated quoted string in a response");
      }
      out.write(c);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private byte[] literal() throws IOException {
    expect('{');
    long size = 0;
    int c;
    while ((c = next()) != '}') {
      if (c < '0' || c > '9' || size > MAX_LITERAL) {
        throw new IOException("bad literal size in a response");
      }
      size = size * 10 + (c - '0');
    }
    if (size > MAX_LITERAL) {
      throw new IOException("literal of " + size + " bytes in a response: too large");
    }
    endOfLine();
    byte[] bytes = in.readNBytes((int) size);
    if (bytes.length < size) {
      throw new EOFException("connection closed in a literal");
    }
    return bytes;
  }

  /** An atom: anything up to a space, paren or line end; brackets may enclose spaces and parens. */
  private String atom() throws IOException {
    StringBuilder sb = new StringBuilder();
    int depth = 0;
    while (true) {
      int c = peek();
      if (c == '\r' || c == '\n' || (depth == 0 && (c == ' ' || c == '(' || c == ')'))) {
        break;
      }
      if (c == '{' && depth == 0 && !sb.isEmpty()) {
        break;
      }
      next();
      depth += c == '[' ? 1 : c == ']' && depth > 0 ? -1 : 0;
      sb.append((char) c);
    }
    if (sb.isEmpty()) {
      throw new IOException("empty token in a response near '" + (char) peek() + "'");
    }
    return sb.toString();
  }

  private String restOfLine() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int c;
    while ((c = peek()) != '\r' && c != '\n') {
      out.write(next());
    }
    endOfLine();
    return out.toString(StandardCharsets.UTF_8);
  }

  private void endOfLine() throws IOException {
    int c = next();
    if (c == '\r') {
      c = next();
    }
    if (c != '\n') {
      throw new IOException("expected the end of a response line, got '" + (char) c + "'");
    }
  }

  private void skipSpace() throws IOException {
    if (peek() == ' ') {
      next();
    }
  }

  private void expect(int wanted) throws IOException {
    int c = next();
    if (c != wanted) {
      throw new IOException(
          "expected '" + (char) wanted + "' in a response, got '" + (char) c + "'");
    }
  }

  private int peek() throws IOException {
    if (peeked == -2) {
      peeked = in.read();
    }
    if (peeked < 0) {
      throw new EOFException("the server closed the connection");
    }
    return peeked;
  }

  private int next() throws IOException {
    int c = peek();
    peeked = -2;
    if (++textBytes > MAX_TEXT) {
      throw new IOException("a response line longer than " + MAX_TEXT + " bytes");
    }
    return c;
  }
}
