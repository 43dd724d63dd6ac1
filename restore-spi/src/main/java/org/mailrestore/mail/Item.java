package org.mailrestore.mail;

import java.util.List;
import java.util.Optional;

/**
 * A mailbox item and its history: revisions ordered by {@code validFrom}, the last one current.
 *
 * @param id the item's id in the source mailbox, unique per account
 */
public record Item(int id, ItemType type, List<Revision> revisions) {

  public Item {
    revisions = List.copyOf(revisions);
    if (revisions.isEmpty()) {
      throw new IllegalArgumentException("item " + id + " has no revisions");
    }
  }

  /** The state at instant {@code t}: empty when the item did not exist or was deleted then. */
  public Optional<Revision> stateAt(long t) {
    for (int i = revisions.size() - 1; i >= 0; i--) {
      Revision r = revisions.get(i);
      if (r.isValidAt(t)) {
        return r.deleted() ? Optional.empty() : Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** The current state: empty when the item is deleted. */
  public Optional<Revision> latest() {
    Revision last = revisions.get(revisions.size() - 1);
    return last.deleted() ? Optional.empty() : Optional.of(last);
  }

  /** True when the last revision is a tombstone. */
  public boolean isDeleted() {
    return revisions.get(revisions.size() - 1).deleted();
  }
}
