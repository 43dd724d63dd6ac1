package org.mailrestore.mailstore;

/**
 * An account in the mailstore.
 *
 * @param id the row id
 * @param uuid the account's id on this server (what grants and mountpoints name)
 * @param mailboxId its mailbox, or null when it has none yet
 */
public record TargetAccount(int id, String uuid, String name, Integer mailboxId) {}
