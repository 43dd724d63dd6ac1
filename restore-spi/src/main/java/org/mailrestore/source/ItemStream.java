package org.mailrestore.source;

import java.util.Iterator;

/** The item records of one account, streamed in stored order. Close it when done. */
public interface ItemStream extends Iterator<ItemEntry>, AutoCloseable {
  @Override
  void close();
}
