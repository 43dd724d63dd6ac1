package org.mailrestore.destination;

/**
 * The instance no longer holds the account it was writing: its lease ran out (it was paused, or cut
 * off from the database) and another instance may have taken the account over. Nothing more may be
 * written for it; the other instance continues.
 */
public class LeaseLostException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public LeaseLostException(String message) {
    super(message);
  }
}
