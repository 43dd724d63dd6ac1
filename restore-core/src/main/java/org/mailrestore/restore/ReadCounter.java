package org.mailrestore.restore;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.mailrestore.source.ItemEntry;

/** What has been read from a {@link CountedSource}: for the progress of verify and export. */
public final class ReadCounter {

  /**
   * @param accounts accounts whose items were opened
   * @param accountsTotal the source's accounts, once it has been asked for them
   * @param other contacts, appointments, tasks, documents, tags...
   * @param bytes content bytes read
   */
  public record Snapshot(
      long accounts, long accountsTotal, long messages, long folders, long other, long bytes) {

    public long items() {
      return messages + folders + other;
    }
  }

  private final Set<String> accounts = ConcurrentHashMap.newKeySet();
  private final AtomicLong accountsTotal = new AtomicLong();
  private final AtomicLong messages = new AtomicLong();
  private final AtomicLong folders = new AtomicLong();
  private final AtomicLong other = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  public Snapshot snapshot() {
    return new Snapshot(
        accounts.size(),
        accountsTotal.get(),
        messages.get(),
        folders.get(),
        other.get(),
        bytes.get());
  }

  public void accountsTotal(long n) {
    accountsTotal.set(n);
  }

  public void account(String id) {
    accounts.add(id);
  }

  public void item(ItemEntry entry) {
    if (entry instanceof ItemEntry.Decoded d) {
      switch (d.item().type()) {
        case MESSAGE -> messages.incrementAndGet();
        case FOLDER, SEARCH_FOLDER, MOUNTPOINT -> folders.incrementAndGet();
        default -> other.incrementAndGet();
      }
    }
  }

  public void bytes(long n) {
    bytes.addAndGet(n);
  }
}
