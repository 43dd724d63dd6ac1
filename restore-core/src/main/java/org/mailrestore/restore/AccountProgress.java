package org.mailrestore.restore;

import java.time.Instant;

/** One account of an operation: where it goes and how far it is. */
public record AccountProgress(
    String sourceAccountId,
    String accountName,
    AccountState state,
    Integer accountId,
    String accountUuid,
    Integer mailboxId,
    Integer sourceRef,
    boolean freshMailbox,
    long itemsRestored,
    long itemsSkipped,
    long itemsFailed,
    long bytesRestored,
    long dedupHits,
    String leaseOwner,
    Instant startedAt,
    Instant finishedAt,
    String error) {}
