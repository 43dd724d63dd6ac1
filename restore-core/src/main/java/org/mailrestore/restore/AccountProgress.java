package org.mailrestore.restore;

import java.time.Instant;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.restore.bookkeeping.IdSpace;

/**
 * One account of an operation: where it goes and how far it is.
 *
 * @param targetKey the target's number for the account's mailbox, once provisioned
 * @param targetId the account's id in the target, once provisioned
 * @param sourceRef the source account's row in {@code restore_source}: with {@code targetKey}, the
 *     key of its id map
 * @param fresh the mailbox was created or emptied by this operation
 */
public record AccountProgress(
    String sourceAccountId,
    String accountName,
    AccountState state,
    Integer targetKey,
    String targetId,
    Integer sourceRef,
    boolean fresh,
    long itemsRestored,
    long itemsSkipped,
    long itemsFailed,
    long bytesRestored,
    long dedupHits,
    String leaseOwner,
    Instant startedAt,
    Instant finishedAt,
    String error) {

  /** The account in the target, once provisioned; null before. */
  public ProvisionedAccount target() {
    return targetKey == null
        ? null
        : new ProvisionedAccount(targetKey, targetId, accountName, fresh);
  }

  /** Its id map, once provisioned; null before. */
  public IdSpace idSpace() {
    return targetKey == null || sourceRef == null ? null : new IdSpace(targetKey, sourceRef);
  }
}
