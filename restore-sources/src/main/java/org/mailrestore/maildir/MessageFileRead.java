package org.mailrestore.maildir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.message.MessageHeaders;

/**
 * A message file read once: hashed, its headers parsed, and, when small, its bytes kept for its
 * copy (decision 0020).
 *
 * @param whole the file's bytes when it was read whole (up to {@link
 *     MaildirBlobSource#KEPT_UP_TO}), else null
 */
record MessageFileRead(BlobDigest digest, long size, MessageHeaders headers, byte[] whole) {

  /** How much of a message is kept to read its headers from. */
  static final int HEAD_BYTES = 64 * 1024;

  /**
   * Reads {@code file}, listed with {@code listedSize} bytes; {@code head} ({@link #HEAD_BYTES})
   * and {@code buffer} are the reader's, reused from message to message.
   */
  static MessageFileRead of(Path file, long listedSize, byte[] head, byte[] buffer)
      throws IOException {
    MessageDigest sha256 = BlobDigest.newSha256();
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      if (listedSize <= MaildirBlobSource.KEPT_UP_TO) {
        byte[] whole = in.readAllBytes();
        sha256.update(whole);
        return new MessageFileRead(
            BlobDigest.of(sha256.digest()),
            whole.length,
            MessageHeaders.parse(whole, Math.min(whole.length, HEAD_BYTES)),
            whole);
      }
      long size = 0;
      int headLength = 0;
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        sha256.update(buffer, 0, n);
        if (headLength < HEAD_BYTES) {
          int keep = Math.min(n, HEAD_BYTES - headLength);
          System.arraycopy(buffer, 0, head, headLength, keep);
          headLength += keep;
        }
        size += n;
      }
      return new MessageFileRead(
          BlobDigest.of(sha256.digest()), size, MessageHeaders.parse(head, headLength), null);
    }
  }
}
