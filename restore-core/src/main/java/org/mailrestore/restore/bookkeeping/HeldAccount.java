package org.mailrestore.restore.bookkeeping;

/** An account of an operation, as an instance holds it. */
public record HeldAccount(String operationId, String sourceAccountId) {}
