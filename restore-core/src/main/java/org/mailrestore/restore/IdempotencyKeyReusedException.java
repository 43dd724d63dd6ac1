package org.mailrestore.restore;

/** An idempotency key sent again with a different request: a client error, never a new restore. */
public final class IdempotencyKeyReusedException extends IllegalArgumentException {

  private static final long serialVersionUID = 1;

  public IdempotencyKeyReusedException(String message) {
    super(message);
  }
}
