package org.mailrestore.files;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import org.mailrestore.message.MessageHeaders;

/**
 * The name of a file of a local tree (a folder of a Maildir or mbox tree) as text, also when its
 * bytes are not in the character set the JVM decodes file names with. Java shows such bytes as
 * U+FFFD: a Latin-1 "Entw\xfcrfe" written by an old mail client, or any non-ASCII name when the JVM
 * runs in the C locale. The bytes themselves are still in the {@link Path} (which is why the file
 * opens); they are read back through its URI, which escapes each byte, and decoded as UTF-8 when
 * they are valid UTF-8, else as Windows-1252, the usual charset of such names.
 */
public final class FileNames {

  private static final Charset LEGACY = Charset.forName("windows-1252");

  private FileNames() {}

  /** The last element of {@code path} as text; "" for a path without one (a root). */
  public static String of(Path path) {
    Path name = path.getFileName();
    if (name == null) {
      return "";
    }
    String text = name.toString();
    if (text.indexOf('\uFFFD') < 0 || !"file".equals(path.getFileSystem().provider().getScheme())) {
      return text;
    }
    String uri = path.toAbsolutePath().toUri().getRawPath();
    int end = uri.endsWith("/") ? uri.length() - 1 : uri.length(); // a directory's URI ends in '/'
    byte[] bytes = unescape(uri.substring(uri.lastIndexOf('/', end - 1) + 1, end));
    return MessageHeaders.text(bytes, 0, bytes.length, LEGACY);
  }

  /**
   * The bytes of a URI's path segment: %XX escapes decoded, other characters (ASCII) as they are.
   */
  private static byte[] unescape(String segment) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(segment.length());
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '%' && i + 2 < segment.length()) {
        out.write(Integer.parseInt(segment, i + 1, i + 3, 16));
        i += 2;
      } else {
        out.write(c);
      }
    }
    return out.toByteArray();
  }
}
