package org.mailrestore.restore;

/**
 * Who hears of an operation's end, as its request asks: the recipients the service (or the CLI) is
 * configured with, and the restored accounts' owners. A request chooses among these and never names
 * an address (decision 0045): the owners' addresses are the restored accounts'.
 *
 * @param service the configured recipients (webhook, mail) are told
 * @param owners each restored account is mailed that its mail is back
 */
public record Notice(boolean service, boolean owners) {

  /** The configured recipients, as before requests could choose. */
  public static final Notice DEFAULT = new Notice(true, false);
}
