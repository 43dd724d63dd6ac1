package org.mailrestore.blob;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The decorators every blob source and volume of a restore wears, in one order: metered outside,
 * then held to the largest item (sources), retried (sources), then bounded in flight. One place, so
 * every source kind and volume kind gets the same.
 */
public final class BlobStacks {

  private BlobStacks() {}

  /**
   * A backup's blobs as a restore reads them.
   *
   * @param kind the metrics tag: local, s3, maildir...
   */
  public static BlobSource source(
      BlobSource raw, String kind, StorageLimits limits, MeterRegistry registry) {
    Counter retries =
        Counter.builder("mailrestore.blob.retries")
            .description("Blob reads retried after a passing failure (reset, timeout, throttling)")
            .tag("kind", kind)
            .register(registry);
    return new MeteredBlobSource(
        new SizeLimitedBlobSource(
            new RetryingBlobSource(
                new BoundedBlobSource(raw, limits.sourceRequests()),
                limits.retries(),
                (digest, cause) -> retries.increment()),
            limits.maxItemBytes()),
        registry,
        kind);
  }

  /**
   * A volume as a restore writes it.
   *
   * @param kind the metrics tag: local, s3, packed-local, packed-s3
   */
  public static BlobVolume volume(
      BlobVolume raw, String kind, StorageLimits limits, MeterRegistry registry) {
    return new MeteredBlobVolume(
        new BoundedBlobVolume(raw, limits.volumeRequests()), registry, kind);
  }
}
