package org.mailrestore.source;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.BlobStacks;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;

/**
 * What a source kind opens with: the configured S3 profiles, the storage bounds, the meters.
 *
 * @param accounts the accounts the restore selected (addresses or ids, lower case); empty for all.
 *     A single-account archive may take its account's address from here.
 * @param fence where local files may be read from: every file a source opens or lists is checked
 *     against it (the service's allowed roots; {@link PathFence#NONE} in the CLI)
 */
public record SourceContext(
    S3Profiles s3,
    StorageLimits limits,
    MeterRegistry registry,
    Set<String> accounts,
    PathFence fence) {

  public SourceContext {
    accounts = accounts == null ? Set.of() : Set.copyOf(accounts);
    fence = fence == null ? PathFence.NONE : fence;
  }

  public SourceContext(
      S3Profiles s3, StorageLimits limits, MeterRegistry registry, Set<String> accounts) {
    this(s3, limits, registry, accounts, PathFence.NONE);
  }

  /** The same context for a restore of these accounts. */
  public SourceContext withAccounts(Set<String> selected) {
    return new SourceContext(s3, limits, registry, selected, fence);
  }

  /** A source's blobs with the decorators every source gets: metered, retried, bounded. */
  public BlobSource decorate(BlobSource raw, String kind) {
    return BlobStacks.source(raw, kind, limits, registry);
  }
}
