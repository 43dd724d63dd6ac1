package org.mailrestore.mailstore;

import java.util.List;

/**
 * Everything one cluster commits in a single transaction: mailstore rows, the id mappings that make
 * re-runs skip, failures, the checkpoint and the account's counters. The blobs the items refer to
 * are recorded before, by {@link VolumeStore#record}, once they are durable.
 *
 * @param idSpace the mailbox and source account the id mappings belong to
 * @param seq the cluster's position in the account's item stream (0: folders and tags)
 * @param leaseOwner the instance that holds the account; the commit fails if another took it over
 */
public record ClusterWrite(
    String operationId,
    String sourceAccountId,
    String leaseOwner,
    IdSpace idSpace,
    int seq,
    List<ItemRow> items,
    List<TagRow> tags,
    List<TagLink> tagLinks,
    List<IdMapping> idMappings,
    List<MountRow> mounts,
    List<FailureRow> failures,
    Counters counters) {

  /** A tag of the mailbox. */
  public record TagRow(int id, String name, Integer color) {}

  /** An item carrying a tag. */
  public record TagLink(int itemId, int tagId) {}

  /** A backup item id and the id it was restored as. */
  public record IdMapping(int oldId, int newId) {}

  /** A restored mountpoint and what it pointed to in the backup, for phase 3 to resolve. */
  public record MountRow(int itemId, int sourceItemId, String sourceOwnerId, int sourceFolderId) {}

  /** What the cluster adds to the account's counters. */
  public record Counters(long restored, long skipped, long failed, long bytes, long dedupHits) {
    public static final Counters NONE = new Counters(0, 0, 0, 0, 0);

    public Counters plus(Counters o) {
      return new Counters(
          restored + o.restored,
          skipped + o.skipped,
          failed + o.failed,
          bytes + o.bytes,
          dedupHits + o.dedupHits);
    }
  }
}
