package org.mailrestore.maildir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.ItemSizeLimit;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.Streams;
import org.mailrestore.files.Compression;
import org.mailrestore.message.MessageHeaders;

/**
 * A message file read once: hashed, its headers parsed, and, when small, its bytes kept for its
 * copy (decision 0020). A Maildir file Dovecot's zlib plugin compressed (gzip, zstd, bzip2, xz, its
 * LZ4) is read as the message it holds; one that does not decompress fails with the reason, never
 * taken for a message.
 *
 * @param size the message's size (decompressed)
 * @param whole the file's bytes when it was read whole (up to {@link MaildirBlobSource#KEPT_UP_TO},
 *     not compressed), else null
 * @param compression how the file is compressed
 */
record MessageFileRead(
    BlobDigest digest, long size, MessageHeaders headers, byte[] whole, Compression compression) {

  /** How much of a message is kept to read its headers from. */
  static final int HEAD_BYTES = 64 * 1024;

  /**
   * Reads {@code file}, looked at a moment ago; {@code head} ({@link #HEAD_BYTES}) and {@code
   * buffer} are the reader's, reused from message to message. Only a Maildir's files may be
   * compressed ({@code maildir}): in a plain tree any file is a message as it is, a {@code .gz}
   * among them too.
   */
  static MessageFileRead of(
      PathFence fence,
      PathFence.Looked file,
      long maxItemBytes,
      byte[] head,
      byte[] buffer,
      boolean maildir)
      throws IOException {
    long listedSize = file.attributes().size();
    if (listedSize > maxItemBytes) {
      throw ItemSizeLimit.tooLarge("the message file (" + listedSize + " bytes)", maxItemBytes);
    }
    try (InputStream in = fence.open(file)) {
      if (listedSize <= MaildirBlobSource.KEPT_UP_TO) {
        // Read at the size listed, without asking the file its size and position again.
        byte[] whole = Streams.readAll(in, listedSize);
        Compression compression = maildir ? Compression.of(whole, whole.length) : Compression.NONE;
        if (compression != Compression.NONE) {
          return decompressed(
              new ByteArrayInputStream(whole), compression, maxItemBytes, head, buffer);
        }
        MessageDigest sha256 = BlobDigest.newSha256();
        sha256.update(whole);
        return new MessageFileRead(
            BlobDigest.of(sha256.digest()),
            whole.length,
            MessageHeaders.parse(whole, Math.min(whole.length, HEAD_BYTES)),
            whole,
            Compression.NONE);
      }
      if (!maildir) {
        return hashed(in, Compression.NONE, head, buffer);
      }
      int first = in.readNBytes(buffer, 0, Compression.MAGIC_BYTES);
      Compression compression = Compression.of(buffer, first);
      InputStream all =
          new SequenceInputStream(new ByteArrayInputStream(Arrays.copyOf(buffer, first)), in);
      return compression == Compression.NONE
          ? hashed(all, compression, head, buffer)
          : decompressed(all, compression, maxItemBytes, head, buffer);
    }
  }

  /** Hashes the message a compressed file holds; a damaged file fails saying so. */
  private static MessageFileRead decompressed(
      InputStream file, Compression compression, long maxItemBytes, byte[] head, byte[] buffer)
      throws IOException {
    try {
      // Hashed only, never kept: the bound stops a bomb's CPU, memory and disk stay flat.
      InputStream message =
          ItemSizeLimit.bound(
              compression.decompress(file),
              maxItemBytes,
              () -> "the message, decompressed from " + compression.label() + ",");
      return hashed(message, compression, head, buffer);
    } catch (BlobException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "the file is compressed with "
              + compression.label()
              + " and does not decompress ("
              + e.getMessage()
              + "): it is damaged or cut short",
          e);
    }
  }

  /** Hashes a message read as a stream, keeping its head. */
  private static MessageFileRead hashed(
      InputStream in, Compression compression, byte[] head, byte[] buffer) throws IOException {
    MessageDigest sha256 = BlobDigest.newSha256();
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
        BlobDigest.of(sha256.digest()),
        size,
        MessageHeaders.parse(head, headLength),
        null,
        compression);
  }
}
