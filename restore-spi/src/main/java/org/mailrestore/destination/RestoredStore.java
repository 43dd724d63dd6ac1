package org.mailrestore.destination;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSource;

/**
 * What a target holds, read back: {@code verify} compares it with the source through the id map,
 * and {@code export} reads it as a source.
 */
public interface RestoredStore extends AutoCloseable {

  /** What a target keeps of what it is given; verify compares only that. */
  enum Fidelity {
    /** Domain, class of service, status, system flag and attributes of accounts. */
    ACCOUNT_SETTINGS,
    ALIASES,
    /** Colours, views, flags and attributes of folders. */
    FOLDER_DETAILS,
    /** Sender, subject, name, uuid and attributes of items. */
    ITEM_DETAILS,
    TAGS,
    /** Contacts, appointments, tasks and documents, not only messages. */
    ALL_ITEM_TYPES,
    /** Search folders (saved queries): a target without them leaves their children one up. */
    SEARCH_FOLDERS,
    GRANTS,
    MOUNTPOINTS
  }

  /** An account as the target holds it: its reference, and its settings as an {@link Account}. */
  record RestoredAccount(ProvisionedAccount ref, Account account) {}

  /**
   * An item as the target holds it.
   *
   * @param item its current state, one revision, with the target's ids (folder, item)
   * @param content its content, or null when it has none
   */
  record RestoredItem(Item item, Content content) {}

  /** The content of a restored item. */
  interface Content {
    /** The raw bytes as stored (not checked: the caller checks). */
    InputStream open() throws IOException;
  }

  Set<Fidelity> fidelity();

  /**
   * Whether the target holds items of this type: verify compares those, and leaves the others to
   * the report of what was not carried.
   */
  default boolean holds(ItemType type) {
    return type == ItemType.MESSAGE || fidelity().contains(Fidelity.ALL_ITEM_TYPES);
  }

  /**
   * What the target keeps of items of this type: where parts of a composition hold different types
   * (messages on an IMAP server, contacts on a DAV server), each type is compared as its part keeps
   * it.
   */
  default Set<Fidelity> fidelity(ItemType type) {
    return fidelity();
  }

  /**
   * A backup item's state as this target keeps it by its mapping (a DAV server keeps a contact's
   * fields as a card holds them, and no flags): what verify compares the item read back with.
   */
  default Revision expected(ItemType type, Revision backup) {
    return backup;
  }

  /**
   * Whether the target keeps an item's content byte for byte: verify reads it back and hashes it. A
   * target that makes something else of it (a calendar object from an appointment's MIME message)
   * says false, and reads back the digest of the content it was made from only when what it holds
   * is what was made from it.
   */
  default boolean keepsBytes(ItemType type) {
    return true;
  }

  /**
   * The flags ({@link org.mailrestore.mail.Flags} bits) the target keeps; verify compares those.
   */
  default int flagsKept() {
    return ~0;
  }

  /**
   * The system folders the target has as such (an IMAP server: Inbox, Sent, Drafts, Trash, Junk);
   * their names are taken, so a backup's folder of the same name under the same parent is renamed,
   * as the restore plans it.
   */
  default Set<SystemFolder> systemFolders() {
    return EnumSet.allOf(SystemFolder.class);
  }

  /**
   * Whether the target keeps this date (epoch milliseconds); verify compares only those. An IMAP
   * server gives a message dated before 1970 (Enron has year-1 dates) the time of its append.
   */
  default boolean keepsDate(long epochMillis) {
    return true;
  }

  /** The precision of the dates the target keeps (an IMAP INTERNALDATE has seconds). */
  default long dateResolutionMillis() {
    return 1;
  }

  Optional<RestoredAccount> account(String name) throws SQLException, IOException;

  /**
   * The backup's account as this target keeps it by its mapping (a directory's schema may have no
   * place for some attributes): what verify compares {@link #account} with.
   */
  default Account expected(Account backup) throws SQLException, IOException {
    return backup;
  }

  /**
   * A backup's grant (its folder already the target's id) as this target keeps it: its rights as
   * the target can hold them, or empty when the target cannot hold the grant at all (a group's
   * grant over IMAP). Verify compares {@link #grants} with these.
   */
  default Optional<Grant> expected(Grant grant) {
    return Optional.of(grant);
  }

  /**
   * The same for a grant on one of {@code owner}'s folders, for a target whose holding a grant
   * depends on the folder (a DAV server shares address books and calendars, not the folders of mail
   * it records): by default, {@link #expected(Grant)}.
   */
  default Optional<Grant> expected(ProvisionedAccount owner, Grant grant)
      throws SQLException, IOException {
    return expected(grant);
  }

  /** False for a target that holds accounts but no mailboxes (a directory). */
  default boolean holdsMailboxes() {
    return true;
  }

  /** The items with these ids in the target, those that exist. */
  Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids)
      throws SQLException, IOException;

  /** How many items and tags the account's user made (system folders aside). */
  long countItems(ProvisionedAccount account) throws SQLException, IOException;

  /** The account's tags: id to name. */
  Map<Integer, String> tags(ProvisionedAccount account) throws SQLException, IOException;

  /** Grants on the account's folders, with the target's folder ids and grantee ids. */
  List<Grant> grants(ProvisionedAccount account) throws SQLException, IOException;

  /** Where the account's mountpoints point, by mountpoint id, with the target's ids. */
  Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account)
      throws SQLException, IOException;

  /** The target as a source, for export: accounts by their target id. */
  MailSource asSource() throws SQLException, IOException;

  @Override
  default void close() throws IOException {}
}
