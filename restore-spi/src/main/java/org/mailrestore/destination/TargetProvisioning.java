package org.mailrestore.destination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Phase 1 in the target. Every call is idempotent: what exists is found and kept, never duplicated.
 * What a target cannot hold (lists on an IMAP server) it says by returning false; the engine
 * reports it once.
 */
public interface TargetProvisioning {

  /** Creates the domain when absent; false when the target has no domains. */
  boolean ensureDomain(Domain domain) throws SQLException, IOException;

  /** Creates the class of service when absent; false when the target has none. */
  boolean ensureClassOfService(ClassOfService cos) throws SQLException, IOException;

  /** Creates the list when absent and adds its members; false when the target has no lists. */
  boolean ensureList(DistributionList list) throws SQLException, IOException;

  /** The account of this address, with its mailbox, if it exists. */
  Optional<ProvisionedAccount> find(String name) throws SQLException, IOException;

  /** Whether an account of the target has this id. */
  boolean idInUse(String id) throws SQLException, IOException;

  /**
   * Creates the account, with an empty mailbox. Its aliases are those the restore will add with
   * {@link #addAliases} (none when it adds none): a target may make them with the account.
   *
   * @param name the address to create it as (the backup's, or another for the new-account policy)
   * @param id the id to give it, when the target lets the restore choose (the backup's, when
   *     unused); the target may choose its own
   * @param withCos false when classes of service are skipped: the account gets none
   */
  ProvisionedAccount create(Account account, String name, String id, boolean withCos)
      throws SQLException, IOException;

  /**
   * Sets an existing account's settings from the backup: with {@code replace} they overwrite what
   * is there, otherwise what is missing is added. Gives it a mailbox when it has none.
   */
  ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos)
      throws SQLException, IOException;

  /** Empties the account's mailbox (the replace policy): every item goes. */
  void empty(ProvisionedAccount account) throws SQLException, IOException;

  /**
   * Adds aliases to the account; returns those that belong to another account (left as they are).
   *
   * @throws UnsupportedOperationException when the target has no aliases
   */
  List<String> addAliases(ProvisionedAccount account, List<String> aliases)
      throws SQLException, IOException;

  /** False when the target has no aliases: the engine reports them as not carried. */
  default boolean holdsAliases() {
    return true;
  }

  /**
   * What the target leaves out of an account it made or updated, for the report: attributes its
   * schema has no place for, a password it could not set. Never a secret.
   *
   * @param detail what was left out and why, for a person
   * @param ofThisAccount true when it is this account's own (reported for each account), false when
   *     every account with it is left out alike (reported once)
   */
  record Omission(String detail, boolean ofThisAccount) {}

  /** What the target left out of this account (as given to {@link #create} or {@link #update}). */
  default List<Omission> omissions(Account account) throws SQLException, IOException {
    return List.of();
  }
}
