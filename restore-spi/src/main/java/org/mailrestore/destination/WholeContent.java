package org.mailrestore.destination;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.Streams;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.source.Passing;

/**
 * An item's bytes, read whole, for targets that need them so (an IMAP APPEND literal needs its
 * exact length first; a DAV resource is made from them) and checked against the digest and size the
 * source declares: staged as they pass, or read by digest through the source's own check ({@link
 * org.mailrestore.blob.BlobSource#openVerified}).
 */
public final class WholeContent {

  private WholeContent() {}

  /** Content that passes now, kept in memory for its cluster. */
  public static Staged stage(Passing content, BlobDigest declared) throws IOException {
    byte[] bytes;
    try (InputStream in = content.open()) {
      bytes = Streams.readAll(in, content.size());
    }
    return new Staged(
        check(bytes, declared, content.size(), content.describe()), bytes.length, bytes);
  }

  /** The item's bytes: staged, or read from the source's blobs within the engine's bound. */
  public static byte[] of(ItemToWrite item, WriteContext context) throws IOException {
    if (item.staged() != null) {
      return (byte[]) item.staged().handle();
    }
    BlobDigest digest = item.state().digest();
    if (digest == null) {
      throw new BlobException(BlobException.Reason.MISSING, "the item names no content");
    }
    long size = item.state().size();
    try {
      long expected = size > 0 ? size : -1;
      return context.content().read(digest, expected, in -> Streams.readAll(in, expected));
    } catch (BlobException e) {
      throw e;
    } catch (IOException e) {
      throw new BlobException(BlobException.Reason.IO_ERROR, e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to read " + digest);
    }
  }

  /**
   * The content's digest, checked against the declared one.
   *
   * @param size the declared size, or 0 or less when none is declared
   */
  private static BlobDigest check(byte[] bytes, BlobDigest declared, long size, String what)
      throws BlobException {
    if (size > 0 && bytes.length != size) {
      throw new BlobException(
          BlobException.Reason.SIZE_MISMATCH,
          what + ": " + bytes.length + " bytes, not the " + size + " declared");
    }
    BlobDigest digest = BlobDigest.ofContent(bytes);
    if (declared != null && !declared.equals(digest)) {
      throw new BlobException(
          BlobException.Reason.DIGEST_MISMATCH,
          what + " hashes to " + digest + ", not " + declared);
    }
    return digest;
  }
}
