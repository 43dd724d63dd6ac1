package org.mailrestore.source;

import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;

/**
 * An item stream over content read once (an archive, an mbox file): entries are produced one ahead
 * by {@link #advance()}, and each entry's {@link Passing} content can tell, through {@link
 * #whileCurrent()}, whether the stream has moved past it.
 */
public abstract class PassingItemStream implements ItemStream {

  private ItemEntry pending;
  private long generation;

  /** The next entry, or null at the end. */
  protected abstract ItemEntry advance();

  /** True until the stream moves past the entry being produced now. */
  protected final BooleanSupplier whileCurrent() {
    long at = generation;
    return () -> generation == at;
  }

  @Override
  public final boolean hasNext() {
    if (pending == null) {
      generation++;
      pending = advance();
    }
    return pending != null;
  }

  @Override
  public final ItemEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ItemEntry e = pending;
    pending = null;
    return e;
  }
}
