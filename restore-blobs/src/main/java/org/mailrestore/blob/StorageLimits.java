package org.mailrestore.blob;

/**
 * Bounds and patience for the storage a restore reads and writes.
 *
 * @param sourceRequests blob reads in flight against one backup at once
 * @param volumeRequests blob writes in flight against one volume at once
 * @param retries how blob reads are retried after passing failures
 */
public record StorageLimits(int sourceRequests, int volumeRequests, RetryPolicy retries) {

  public static final StorageLimits DEFAULT = new StorageLimits(64, 64, RetryPolicy.DEFAULT);
}
