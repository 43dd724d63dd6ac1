package org.mailrestore.restore;

import java.time.Instant;
import org.jspecify.annotations.Nullable;
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
    @Nullable Integer targetKey,
    @Nullable String targetId,
    @Nullable Integer sourceRef,
    boolean fresh,
    long itemsRestored,
    long itemsSkipped,
    long itemsFailed,
    long bytesRestored,
    long dedupHits,
    @Nullable String leaseOwner,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    @Nullable String error) {

  /** The account in the target, once provisioned; null before. */
  public @Nullable ProvisionedAccount target() {
    return targetKey == null
        ? null
        : new ProvisionedAccount(targetKey, targetId, accountName, fresh);
  }

  /** Its id map, once provisioned; null before. */
  public @Nullable IdSpace idSpace() {
    return targetKey == null || sourceRef == null ? null : new IdSpace(targetKey, sourceRef);
  }

  /** Its id map, for an account provisioned: phases 2 and 3 work on no other. */
  public IdSpace provisionedIdSpace() {
    IdSpace space = idSpace();
    if (space == null) {
      throw new IllegalStateException("account " + accountName + " is not provisioned");
    }
    return space;
  }
}
