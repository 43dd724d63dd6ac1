package org.mailrestore.blob;

/**
 * A blob as a volume holds it.
 *
 * @param locator where the volume keeps it; opaque outside the volume (a relative path, an object
 *     key, or a pack reference), stored with the rows that point at the blob
 * @param rawSize the blob's size before compression
 * @param storedSize the bytes it occupies in the volume
 */
public record StoredBlob(BlobDigest digest, String locator, long rawSize, long storedSize) {}
