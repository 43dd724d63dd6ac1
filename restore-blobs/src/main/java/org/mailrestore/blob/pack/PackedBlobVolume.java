package org.mailrestore.blob.pack;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.Decompressing;
import org.mailrestore.blob.StoredBlob;

/**
 * Small blobs appended into large packs, as Dovecot's mdbox does; larger ones go to another volume
 * (one file or object each). Creating one durable file per small blob tops out at a few thousand
 * per second and one PUT per object pays a round trip each; a pack takes thousands of blobs per
 * fsync or PUT.
 *
 * <p>A small blob is read whole (at most {@code packThreshold} bytes) before a byte is appended, so
 * a blob whose stream fails (a digest mismatch) leaves nothing behind. Its locator is {@code
 * pack:<pack>:<offset>:<length>}, with {@code :zst} when compressed.
 */
public final class PackedBlobVolume implements BlobVolume {

  public static final int DEFAULT_PACK_THRESHOLD = 64 * 1024;

  private static final String PREFIX = "pack:";

  private final PackStore packs;
  private final BlobVolume large;
  private final int packThreshold;
  private final BlobCompression compression;
  private final long compressionThreshold;

  /**
   * @param large where blobs above {@code packThreshold} go
   * @param compression applied to packed blobs of at least {@code compressionThreshold} bytes
   */
  public PackedBlobVolume(
      PackStore packs,
      BlobVolume large,
      int packThreshold,
      BlobCompression compression,
      long compressionThreshold) {
    this.packs = packs;
    this.large = large;
    this.packThreshold = packThreshold;
    this.compression = compression;
    this.compressionThreshold = compressionThreshold;
  }

  @Override
  public StoredBlob write(BlobDigest digest, long sizeHint, InputStream content)
      throws IOException {
    if (sizeHint > packThreshold) {
      return large.write(digest, sizeHint, content);
    }
    if (sizeHint < 0) {
      return writeUnknownSize(digest, content);
    }
    // Read into an array of the announced size (no growing and copying), then make sure the
    // stream ends there.
    byte[] head = new byte[(int) sizeHint];
    int read = content.readNBytes(head, 0, head.length);
    if (read < head.length) {
      head = Arrays.copyOf(head, read); // shorter than said; the digest check decides
    } else {
      int next = content.read();
      if (next >= 0) {
        // Larger than its size said: the rest follows the part already read.
        byte[] seen = Arrays.copyOf(head, head.length + 1);
        seen[head.length] = (byte) next;
        return large.write(
            digest, sizeHint, new SequenceInputStream(new ByteArrayInputStream(seen), content));
      }
    }
    return append(digest, head);
  }

  private StoredBlob writeUnknownSize(BlobDigest digest, InputStream content) throws IOException {
    byte[] head = content.readNBytes(packThreshold + 1);
    if (head.length > packThreshold) {
      return large.write(
          digest, -1, new SequenceInputStream(new ByteArrayInputStream(head), content));
    }
    return append(digest, head);
  }

  private StoredBlob append(BlobDigest digest, byte[] head) throws IOException {
    BlobCompression use = head.length >= compressionThreshold ? compression : BlobCompression.NONE;
    byte[] stored = use == BlobCompression.NONE ? head : compress(use, head);
    PackStore.Slot slot = packs.append(stored, 0, stored.length);
    String locator =
        PREFIX
            + slot.pack()
            + ":"
            + slot.offset()
            + ":"
            + stored.length
            + (use == BlobCompression.NONE ? "" : ":" + use.suffix().substring(1));
    return new StoredBlob(digest, locator, head.length, stored.length);
  }

  private static byte[] compress(BlobCompression compression, byte[] raw) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(raw.length / 2 + 64);
    try (OutputStream out = compression.compress(buffer)) {
      out.write(raw);
    }
    return buffer.toByteArray();
  }

  @Override
  public void check() throws IOException {
    packs.check();
    large.check();
  }

  @Override
  public InputStream open(StoredBlob blob) throws IOException {
    String locator = blob.locator();
    if (!locator.startsWith(PREFIX)) {
      return large.open(blob);
    }
    String[] parts = locator.substring(PREFIX.length()).split(":");
    if (parts.length < 3) {
      throw new BlobException(BlobException.Reason.MISSING, "not a pack locator: " + locator);
    }
    BlobCompression c =
        parts.length > 3 ? BlobCompression.fromName("." + parts[3]) : BlobCompression.NONE;
    InputStream raw = packs.read(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]));
    return Decompressing.open(raw, c, () -> packs.describe() + " " + locator);
  }

  @Override
  public void sync() throws IOException {
    packs.sync();
    large.sync();
  }

  @Override
  public String describe() {
    return "packed "
        + packs.describe()
        + " (blobs over "
        + packThreshold
        + " bytes: "
        + large.describe()
        + ")";
  }

  @Override
  public void close() throws IOException {
    try {
      packs.close();
    } finally {
      large.close();
    }
  }
}
