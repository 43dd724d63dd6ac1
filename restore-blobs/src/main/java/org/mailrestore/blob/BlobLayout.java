package org.mailrestore.blob;

/**
 * The one naming scheme for blobs in directories and buckets: {@code <d0d1>/<digest><suffix>}.
 *
 * <p>The two-digit fan-out keeps directories to a few thousand entries per million blobs.
 */
public final class BlobLayout {

  private BlobLayout() {}

  /** The relative name of a blob, with {@code /} as separator. */
  public static String relativeName(BlobDigest digest, BlobCompression compression) {
    return digest.shard() + "/" + digest.hex() + compression.suffix();
  }
}
