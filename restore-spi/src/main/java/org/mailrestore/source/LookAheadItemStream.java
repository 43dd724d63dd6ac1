package org.mailrestore.source;

import java.util.NoSuchElementException;

/**
 * An item stream that produces its entries one ahead: a subclass says how to make the next one
 * ({@link #advance()}), this class answers {@code hasNext} and {@code next} from it.
 */
public abstract class LookAheadItemStream implements ItemStream {

  private ItemEntry pending;
  private boolean ended;

  /** The next entry, or null at the end (not called again once it answered null). */
  protected abstract ItemEntry advance();

  /** Called before each {@link #advance()}: the stream is about to move past its last entry. */
  protected void moving() {}

  @Override
  public final boolean hasNext() {
    if (pending == null && !ended) {
      moving();
      pending = advance();
      ended = pending == null;
    }
    return pending != null;
  }

  @Override
  public final ItemEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ItemEntry entry = pending;
    pending = null;
    return entry;
  }

  @Override
  public void close() {}
}
