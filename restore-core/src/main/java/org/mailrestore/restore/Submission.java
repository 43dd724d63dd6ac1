package org.mailrestore.restore;

/**
 * A restore as its submission recorded it.
 *
 * @param created false when an idempotency key used before gave the operation created then
 */
public record Submission(String id, boolean created) {}
