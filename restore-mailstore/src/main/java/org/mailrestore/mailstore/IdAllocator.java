package org.mailrestore.mailstore;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out item ids of one mailbox. Only the instance holding the account's lease writes to it, so
 * an in-memory counter started past every id in the mailbox is enough; ids of a cluster that rolled
 * back are simply reused.
 */
final class IdAllocator {

  private final AtomicInteger next;

  IdAllocator(int firstFree) {
    this.next = new AtomicInteger(firstFree);
  }

  int next() {
    return next.getAndIncrement();
  }

  /** The highest id handed out so far. */
  int highest() {
    return next.get() - 1;
  }
}
