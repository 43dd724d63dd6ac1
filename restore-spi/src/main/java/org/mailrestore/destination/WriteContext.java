package org.mailrestore.destination;

import java.util.concurrent.ExecutorService;

/**
 * What the engine lends a target for one account's phase 2.
 *
 * @param content the source's content by digest (content that is not passing), read within the
 *     engine's bound on copies in flight
 * @param io runs copies and other work in parallel (virtual threads; the content's turns bound
 *     them)
 * @param lease this instance's hold on the account, checked before each write a target cannot fence
 *     otherwise
 */
public record WriteContext(SourceContent content, ExecutorService io, Lease lease) {

  /** For one process alone: the lease never ends. */
  public WriteContext(SourceContent content, ExecutorService io) {
    this(content, io, Lease.HELD);
  }
}
