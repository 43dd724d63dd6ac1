package org.mailrestore.restore.bookkeeping;

/**
 * Where source item ids map to restored ids: one target mailbox and one source account. Item ids
 * are unique only within a source account, so two accounts merged into one mailbox (from different
 * backups, say) keep separate maps.
 *
 * @param targetKey the target's number for the mailbox (see {@link
 *     org.mailrestore.destination.ProvisionedAccount#key()})
 * @param sourceRef the source account's row in {@code restore_source}
 */
public record IdSpace(int targetKey, int sourceRef) {}
