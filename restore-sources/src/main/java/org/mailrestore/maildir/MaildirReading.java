package org.mailrestore.maildir;

import java.util.function.UnaryOperator;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.source.SourceContext;

/**
 * How a Maildir tree is read: its messages' blob source decorated as every source's is (metrics,
 * retries, bounds), its files opened through a fence, its messages held to the largest item.
 */
public record MaildirReading(
    UnaryOperator<BlobSource> decorate, PathFence fence, long maxItemBytes) {

  /** As it is: no decorators, no fence, the default largest item (tests, tools). */
  public static final MaildirReading PLAIN =
      new MaildirReading(
          UnaryOperator.identity(), PathFence.NONE, StorageLimits.DEFAULT_MAX_ITEM_BYTES);

  /** As a restore reads it, in {@code context}. */
  public static MaildirReading of(SourceContext context) {
    return new MaildirReading(
        blobs -> context.decorate(blobs, MaildirSourceKind.NAME),
        context.fence(),
        context.limits().maxItemBytes());
  }
}
