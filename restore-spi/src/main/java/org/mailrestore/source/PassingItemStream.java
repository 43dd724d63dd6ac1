package org.mailrestore.source;

import java.util.function.BooleanSupplier;

/**
 * An item stream over content read once (an archive, an mbox file): each entry's {@link Passing}
 * content can tell, through {@link #whileCurrent()}, whether the stream has moved past it.
 */
public abstract class PassingItemStream extends LookAheadItemStream {

  private long generation;

  /** True until the stream moves past the entry being produced now. */
  protected final BooleanSupplier whileCurrent() {
    long at = generation;
    return () -> generation == at;
  }

  @Override
  protected final void moving() {
    generation++;
  }
}
