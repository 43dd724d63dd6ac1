package org.mailrestore.source;

import java.util.Iterator;
import java.util.List;

/** The item records of one account, streamed in stored order. Close it when done. */
public interface ItemStream extends Iterator<ItemEntry>, AutoCloseable {
  @Override
  void close();

  /** The entries of a list, in its order (a source that holds an account's few items). */
  static ItemStream of(List<ItemEntry> entries) {
    Iterator<ItemEntry> it = List.copyOf(entries).iterator();
    return new ItemStream() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public ItemEntry next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }
}
