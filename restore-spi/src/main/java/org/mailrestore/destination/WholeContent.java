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
 * An item's bytes, read whole, for targets that need them so (an IMAP APPEND literal of an ordinary
 * size needs its exact length first; a DAV resource is made from them) and checked against the
 * digest and size the source declares: staged as they pass, or read by digest through the source's
 * own check ({@link org.mailrestore.blob.BlobSource#openVerified}).
 */
public final class WholeContent {

  /** The most content held whole, whatever the heap: its CRLF copy may double it. */
  static final long LARGEST_EVER = 1L << 30;

  private WholeContent() {}

  /**
   * The largest content held whole: at most {@link #LARGEST_EVER} (an array holds under 2 GiB, and
   * an IMAP APPEND holds a CRLF copy beside it), and an eighth of this JVM's heap (the clusters in
   * flight may each hold one, with its copy). Larger content fails alone as {@code ITEM_TOO_LARGE}:
   * read whole, it would stop the restore with an {@link OutOfMemoryError}.
   */
  public static long largest() {
    return Math.min(LARGEST_EVER, Runtime.getRuntime().maxMemory() / 8);
  }

  /** Content that passes now, kept in memory for its cluster. */
  public static Staged stage(Passing content, BlobDigest declared) throws IOException {
    return stage(content, declared, largest());
  }

  static Staged stage(Passing content, BlobDigest declared, long largest) throws IOException {
    refuseOver(content.size(), largest, content.describe());
    byte[] bytes;
    try (InputStream in = content.open()) {
      bytes = readAtMost(in, content.size(), largest, content.describe());
    }
    return new Staged(
        check(bytes, declared, content.size(), content.describe()), bytes.length, bytes);
  }

  /** The item's bytes: staged, or read from the source's blobs within the engine's bound. */
  public static byte[] of(ItemToWrite item, WriteContext context) throws IOException {
    return of(item, context, largest());
  }

  static byte[] of(ItemToWrite item, WriteContext context, long largest) throws IOException {
    if (item.staged() != null) {
      return (byte[]) item.staged().handle();
    }
    long size = item.state().size();
    String what = "its content (" + item.state().digest() + ")";
    refuseOver(size, largest, what);
    long expected = size > 0 ? size : -1;
    return byDigest(item, context, in -> readAtMost(in, expected, largest, what));
  }

  /**
   * Reads an item's content by its digest, through the source's check, as {@code reading} takes it:
   * for a target that streams content too large to hold whole. The source's failures come as {@link
   * BlobException}s with their reason.
   */
  public static <T> T byDigest(
      ItemToWrite item, WriteContext context, SourceContent.Reading<T> reading) throws IOException {
    BlobDigest digest = item.state().digest();
    if (digest == null) {
      throw new BlobException(BlobException.Reason.MISSING, "the item names no content");
    }
    long size = item.state().size();
    try {
      return context.content().read(digest, size > 0 ? size : -1, reading);
    } catch (BlobException e) {
      throw e;
    } catch (IOException e) {
      throw new BlobException(BlobException.Reason.IO_ERROR, e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to read " + digest);
    }
  }

  /** Fails content declared larger than {@code largest} before a byte of it is read. */
  private static void refuseOver(long size, long largest, String what) throws BlobException {
    if (size > largest) {
      throw tooLarge(what, mib(size), largest);
    }
  }

  /**
   * The stream's bytes, failing once they are more than {@code largest} (a size undeclared, or
   * declared wrongly): never more than that is held.
   */
  private static byte[] readAtMost(InputStream in, long expected, long largest, String what)
      throws IOException {
    if (expected >= 0 && expected <= Streams.PRESIZED_UP_TO) {
      return Streams.readAll(in, expected); // small: read into an array of its size
    }
    byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, largest + 1));
    if (bytes.length > largest) {
      throw tooLarge(what, "over " + mib(largest), largest);
    }
    return bytes;
  }

  private static BlobException tooLarge(String what, String size, long largest) {
    return new BlobException(
        BlobException.Reason.TOO_LARGE,
        what
            + ": "
            + size
            + ", more than the "
            + mib(largest)
            + " this target holds in memory to send (an eighth of the JVM's heap of "
            + mib(Runtime.getRuntime().maxMemory())
            + ", 1 GiB at most); give the JVM more heap (MAILRESTORE_JAVA_OPTS=-Xmx...) and"
            + " restore again (a re-run skips what is restored), or restore it into the"
            + " mailstore, which streams it");
  }

  private static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
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
