package org.mailrestore.imap;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;

/**
 * A message too large to hold in memory, in the CRLF form IMAP sends, in a temporary file: an
 * APPEND sends it from there, and a retry sends it again (decision 0071). The file goes when the
 * message is closed.
 *
 * @param file the CRLF form
 * @param size the CRLF form's size: the literal's
 * @param kept how the source's lines ended
 * @param nulBytes where NUL bytes are sent as {@code 0x80} ({@link NulBytes}), or null
 * @param messageId as {@link Appending#messageId}, or null
 * @param digest the digest of the source's bytes, as they were
 * @param sourceSize the source's bytes
 */
record SpooledMessage(
    Path file,
    long size,
    LineEndings.Kept kept,
    byte[] nulBytes,
    String messageId,
    BlobDigest digest,
    long sourceSize)
    implements AutoCloseable {

  /**
   * Messages larger than this are spooled rather than held: a cluster's slice ({@link
   * ImapWriter#SLICE_BYTES}) holds one whole otherwise, and the clusters in flight a few.
   */
  static final long FROM = 16L << 20;

  /** The header is read from this much of the start for the Message-ID. */
  private static final int HEAD = 64 * 1024;

  /** Where messages are spooled: the JVM's temporary directory. */
  static final Path DIRECTORY = Path.of(System.getProperty("java.io.tmpdir"));

  /**
   * Spools a message as it streams into {@link #DIRECTORY}.
   *
   * @param declaredSize the size the source declares, or -1 when it declares none
   * @param what names the message in errors
   * @throws BlobException when the file cannot be written (a full disk): the message fails alone,
   *     saying where and how much room it needs
   * @throws IOException when the source cannot be read, as the source says
   */
  static SpooledMessage of(InputStream source, long declaredSize, String what) throws IOException {
    return of(source, declaredSize, what, DIRECTORY);
  }

  static SpooledMessage of(InputStream source, long declaredSize, String what, Path directory)
      throws IOException {
    Path file;
    try {
      file = Files.createTempFile(directory, "mailrestore-append-", ".eml");
    } catch (IOException e) {
      throw spoolFailed(what, directory, declaredSize, e);
    }
    try {
      MessageDigest sha256 = BlobDigest.newSha256();
      long read = 0;
      LineEndings.Kept kept;
      long size;
      NulBytes.Replacing out =
          new NulBytes.Replacing(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
      try (out) {
        LineEndings.Converting crlf = new LineEndings.Converting(out);
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = source.read(buffer)) >= 0; ) {
          sha256.update(buffer, 0, n);
          read += n;
          try {
            crlf.write(buffer, 0, n);
          } catch (IOException e) {
            throw spoolFailed(what, directory, declaredSize, e);
          }
        }
        try {
          kept = crlf.finish();
        } catch (IOException e) {
          throw spoolFailed(what, directory, declaredSize, e);
        }
        size = crlf.written();
      }
      if (declaredSize >= 0 && read != declaredSize) {
        throw new BlobException(
            BlobException.Reason.SIZE_MISMATCH,
            what + ": " + read + " bytes, not the " + declaredSize + " declared");
      }
      byte[] head;
      try (InputStream in = Files.newInputStream(file)) {
        head = in.readNBytes(HEAD);
      }
      if (head.length == HEAD) {
        head = java.util.Arrays.copyOf(head, lastLineEnd(head)); // no header line cut in two
      }
      return new SpooledMessage(
          file,
          size,
          kept,
          out.places(),
          Appending.messageId(head),
          BlobDigest.of(sha256.digest()),
          read);
    } catch (IOException | RuntimeException | Error e) {
      Files.deleteIfExists(file);
      throw e;
    }
  }

  private static BlobException spoolFailed(
      String what, Path directory, long declaredSize, IOException e) {
    String size =
        declaredSize >= 0
            ? String.format(java.util.Locale.ROOT, "%.1f MiB", declaredSize / 1048576.0)
            : "its size";
    return new BlobException(
        BlobException.Reason.IO_ERROR,
        what
            + ": a message this large goes over IMAP from a temporary file, and writing it in "
            + directory
            + " failed ("
            + e.getMessage()
            + "); it needs "
            + size
            + " free there, or set another directory with"
            + " MAILRESTORE_JAVA_OPTS=-Djava.io.tmpdir=DIR, and restore again (a re-run skips what"
            + " is restored)",
        e);
  }

  private static int lastLineEnd(byte[] head) {
    for (int i = head.length - 1; i >= 0; i--) {
      if (head[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  /** The CRLF form, from its start. */
  InputStream open() throws IOException {
    return Files.newInputStream(file);
  }

  /** Deletes the file; never fails. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temporary file left behind: nothing else is lost
    }
  }

  /** Each spooled file is one message: compared by reference, as {@link Appending} is. */
  @Override
  public boolean equals(Object other) {
    return this == other;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
