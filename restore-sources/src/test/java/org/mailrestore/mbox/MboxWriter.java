package org.mailrestore.mbox;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Writes messages into mbox files of each dialect, as the usual writers do, for tests. */
public final class MboxWriter {

  private MboxWriter() {}

  /** mboxrd: every {@code >*From } line gets one more {@code >}. */
  public static byte[] mboxrd(byte[] message, String separator) {
    return write(message, separator, true, false, false);
  }

  /** mboxo: {@code From } lines become {@code >From }. */
  public static byte[] mboxo(byte[] message, String separator) {
    return write(message, separator, false, true, false);
  }

  /** mboxcl: mboxo quoting and a Content-Length header. */
  public static byte[] mboxcl(byte[] message, String separator) {
    return write(message, separator, false, true, true);
  }

  /** mboxcl2: a Content-Length header, no quoting. */
  public static byte[] mboxcl2(byte[] message, String separator) {
    return write(message, separator, false, false, true);
  }

  private static byte[] write(byte[] message, String separator, boolean rd, boolean o, boolean cl) {
    String text = new String(message, StandardCharsets.ISO_8859_1);
    String eol = text.contains("\r\n") ? "\r\n" : "\n";
    int headerEnd = text.indexOf(eol + eol);
    String headers = headerEnd < 0 ? text : text.substring(0, headerEnd + eol.length());
    String body = headerEnd < 0 ? "" : text.substring(headerEnd + eol.length() * 2);
    StringBuilder quotedBody = new StringBuilder();
    quote(body, quotedBody, rd, o);
    StringBuilder out = new StringBuilder(separator).append(eol);
    quote(headers, out, rd, o);
    if (cl) {
      out.append("Content-Length: ").append(quotedBody.length()).append(eol);
    }
    if (headerEnd >= 0) {
      out.append(eol).append(quotedBody);
    }
    out.append(eol);
    return out.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static void quote(String text, StringBuilder out, boolean rd, boolean o) {
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      end = end < 0 ? text.length() : end + 1;
      String line = text.substring(start, end);
      if (rd && line.replaceFirst("^>*", "").startsWith("From ")) {
        out.append('>');
      } else if (o && line.startsWith("From ")) {
        out.append('>');
      }
      out.append(line);
      start = end;
    }
  }

  /** Several messages in one file. */
  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
