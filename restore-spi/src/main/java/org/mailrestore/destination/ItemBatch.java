package org.mailrestore.destination;

import java.util.List;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;

/**
 * A cluster of content items to write: one transaction and one checkpoint in the bookkeeping.
 *
 * @param seq the cluster's place in the account's item stream (from 1)
 * @param inDoubt true when this cluster may have been written in part already without its journal
 *     being committed (a retry after a failure, or a resume after a crash while it was in flight):
 *     a target without {@link MailTarget#atomicCommits()} must then look for each item before
 *     writing it
 */
public record ItemBatch(int seq, List<ItemToWrite> items, boolean inDoubt) {

  public ItemBatch {
    items = List.copyOf(items);
  }

  public ItemBatch asInDoubt() {
    return new ItemBatch(seq, items, true);
  }

  /**
   * An item to write.
   *
   * @param state the revision to restore; for content taken while it passed, its digest is the
   *     staged one
   * @param folder the item's folder, by its id in the target
   * @param location where it is in the source, for failures
   * @param staged content the target took as it passed ({@link MailboxWriter#stage}), or null when
   *     it is read by digest from {@link WriteContext#blobs()}
   */
  public record ItemToWrite(
      int oldId, ItemType type, Revision state, int folder, String location, Staged staged) {

    /**
     * True when the item has content to store: staged as it passed, or named by digest. An item of
     * a type that may have a blob can come without one (an appointment of a Zimbra archive whose
     * invites are all in its metadata).
     */
    public boolean hasContent() {
      return staged != null || (type.hasBlob() && state.digest() != null);
    }
  }

  /**
   * Content a target took as it passed, for the cluster that will hold its item.
   *
   * @param handle what the target needs to write it later (a stored blob, a spool file)
   */
  public record Staged(org.mailrestore.blob.BlobDigest digest, long size, Object handle) {}
}
