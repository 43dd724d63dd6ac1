package org.mailrestore.restore.bookkeeping;

/**
 * The instance no longer holds the account it was writing (its lease expired and another instance
 * took the account over). The transaction was rolled back; the other instance continues.
 */
public class LeaseLostException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public LeaseLostException(String message) {
    super(message);
  }
}
