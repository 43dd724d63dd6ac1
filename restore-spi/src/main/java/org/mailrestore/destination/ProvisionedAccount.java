package org.mailrestore.destination;

/**
 * An account of the target that a restore writes into.
 *
 * @param key the target's number for the account's mailbox, unique in the target: the id map and
 *     the phase-3 records are keyed by it (the mailstore's mailbox id)
 * @param id the account's id in the target, what grants and mountpoints name (the mailstore's
 *     account uuid, an IMAP login)
 * @param name the account's address
 * @param fresh true when the mailbox was created or emptied by this restore: nothing in it can be a
 *     restored item already, so the restore does not look for any
 */
public record ProvisionedAccount(int key, String id, String name, boolean fresh) {

  public ProvisionedAccount withFresh(boolean value) {
    return new ProvisionedAccount(key, id, name, value);
  }
}
