package org.mailrestore.source;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.BlobStacks;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;

/**
 * What a source kind opens with: the configured S3 profiles, the storage bounds, the meters.
 *
 * @param accounts the accounts the restore selected (addresses or ids, lower case); empty for all.
 *     A single-account archive may take its account's address from here.
 */
public record SourceContext(
    S3Profiles s3, StorageLimits limits, MeterRegistry registry, Set<String> accounts) {

  public SourceContext {
    accounts = accounts == null ? Set.of() : Set.copyOf(accounts);
  }

  /** The same context for a restore of these accounts. */
  public SourceContext withAccounts(Set<String> selected) {
    return new SourceContext(s3, limits, registry, selected);
  }

  /** A source's blobs with the decorators every source gets: metered, retried, bounded. */
  public BlobSource decorate(BlobSource raw, String kind) {
    return BlobStacks.source(raw, kind, limits, registry);
  }
}
