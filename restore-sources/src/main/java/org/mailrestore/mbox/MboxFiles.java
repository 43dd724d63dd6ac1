package org.mailrestore.mbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mailrestore.blob.PathFence;
import org.mailrestore.files.Compression;

/**
 * How an mbox file's bytes reach its reader: opened through the fence, decompressed, classic Mac OS
 * line ends read as LF, in the file's dialect (as given, or told from its first message).
 */
final class MboxFiles {

  private MboxFiles() {}

  /** A reader of a file's messages, decompressed, in its dialect. */
  static MboxReader reader(PathFence fence, MboxTree.MboxFile file, MboxDialect dialect)
      throws IOException {
    MboxDialect resolved = resolve(fence, file.compression(), file.path(), dialect);
    return new MboxReader(open(fence, file.compression(), file.path()), resolved); // buffered there
  }

  /**
   * The dialect of a file: as given, or for {@code auto} a Content-Length dialect when the first
   * message's header leads exactly to the second message (or the end), else mboxrd. Read as a
   * stream (compressed files cannot be read at an offset), opened by its {@code Path}: a name whose
   * bytes the JVM cannot decode still opens.
   */
  static MboxDialect resolve(
      PathFence fence, Compression compression, Path path, MboxDialect dialect) throws IOException {
    if (dialect != MboxDialect.AUTO) {
      return dialect;
    }
    try (InputStream in = open(fence, compression, path)) {
      // A file cut short is probed on what it has: the reader reports the cut where it meets it.
      byte[] head = readUpTo(in, 256 * 1024);
      // From the first separator: the reader passes over text before it.
      int first =
          SeparatorLine.first(
              Arrays.copyOf(head, Math.min(head.length, SeparatorLine.MAX_LEADING)));
      String text = new String(head, StandardCharsets.ISO_8859_1);
      int firstLine = text.indexOf('\n', Math.max(0, first));
      int blank = text.indexOf("\n\n", firstLine);
      int blankCrlf = text.indexOf("\r\n\r\n", firstLine);
      int bodyStart;
      if (blankCrlf >= 0 && (blank < 0 || blankCrlf < blank)) {
        bodyStart = blankCrlf + 4;
      } else if (blank >= 0) {
        bodyStart = blank + 2;
      } else {
        return MboxDialect.MBOXRD;
      }
      Matcher m =
          Pattern.compile("(?im)^Content-Length:\\s*(\\d{1,15})\\s*$")
              .matcher(text.substring(firstLine + 1, bodyStart));
      if (!m.find()) {
        return MboxDialect.MBOXRD;
      }
      long end = bodyStart + Long.parseLong(m.group(1));
      byte[] after;
      try {
        if (end <= head.length) {
          after = Arrays.copyOfRange(head, (int) end, (int) Math.min(head.length, end + 16));
          if (after.length < 16 && head.length == 256 * 1024) {
            after = concat(after, in.readNBytes(16 - after.length));
          }
        } else {
          in.skipNBytes(end - head.length);
          after = in.readNBytes(16);
        }
      } catch (IOException e) {
        return MboxDialect.MBOXRD; // the header leads past the end, or past a cut
      }
      String next =
          new String(after, StandardCharsets.ISO_8859_1).replaceFirst("^(\\r?\\n){0,2}", "");
      return next.startsWith("From ") || next.isEmpty() ? MboxDialect.MBOXCL2 : MboxDialect.MBOXRD;
    }
  }

  /** A file's bytes as the reader takes them: decompressed, classic Mac OS line ends as LF. */
  private static InputStream open(PathFence fence, Compression compression, Path path)
      throws IOException {
    InputStream in = compression.open(fence, path);
    try {
      return MacLineEndings.of(in);
    } catch (IOException e) {
      in.close();
      throw e;
    }
  }

  /** Up to {@code max} bytes; fewer at the end, or where reading fails after some were read. */
  private static byte[] readUpTo(InputStream in, int max) throws IOException {
    byte[] buffer = new byte[max];
    int n = 0;
    try {
      int r;
      while (n < max && (r = in.read(buffer, n, max - n)) >= 0) {
        n += r;
      }
    } catch (IOException e) {
      if (n == 0) {
        throw e;
      }
    }
    return Arrays.copyOf(buffer, n);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
