package org.mailrestore.blob;

/**
 * Bounds and patience for the storage a restore reads and writes.
 *
 * @param sourceRequests blob reads in flight against one backup at once
 * @param volumeRequests blob writes in flight against one volume at once
 * @param retries how blob reads are retried after passing failures
 * @param maxItemBytes the largest item a restore reads, once decompressed, whatever holds it (a
 *     blob, a message of an mbox or a Maildir, an archive's entry): a larger one fails alone, with
 *     the reason, before memory or disk hold more than this of it
 */
public record StorageLimits(
    int sourceRequests, int volumeRequests, RetryPolicy retries, long maxItemBytes) {

  /** The default largest item: 4 GiB, twice Zimbra's own largest message. */
  public static final long DEFAULT_MAX_ITEM_BYTES = 4L << 30;

  public static final StorageLimits DEFAULT =
      new StorageLimits(64, 64, RetryPolicy.DEFAULT, DEFAULT_MAX_ITEM_BYTES);

  public StorageLimits {
    if (maxItemBytes < 1) {
      throw new IllegalArgumentException("the largest item must be at least 1 byte");
    }
  }

  public StorageLimits withMaxItemBytes(long value) {
    return new StorageLimits(sourceRequests, volumeRequests, retries, value);
  }
}
