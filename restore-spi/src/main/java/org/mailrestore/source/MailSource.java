package org.mailrestore.source;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;

/**
 * A place restores read from: a backup in our format, a tree of Maildir mailboxes, an archive, or a
 * restore target read back. It presents provisioning (domains, classes of service, lists,
 * accounts), each account's items as revisions (folder-like items and tags first, then content) and
 * shares, and the blobs the items name.
 *
 * <p>Contract (checked by {@code MailSourceContract} for every implementation): what cannot be read
 * is reported, never thrown, below the level of the whole source (a {@link Parsed.Failed}, an
 * {@link ItemEntry.Undecodable}, a {@link SourceProblem}); item streams are lazy and hold no more
 * than one account's folders in memory; reading the same source twice gives the same ids.
 */
public interface MailSource extends AutoCloseable {

  /** Where the source is, for people (no secrets). */
  String describe();

  /**
   * What the source is now: a short text that differs once the source was removed and another put
   * in its place (a directory's inode, a manifest's digest, an object's ETag). The engine records
   * it when an operation starts and asks again as each account ends and as the operation ends, so
   * an operation whose source vanished or was replaced does not end COMPLETED, and a resume does
   * not mix two backups.
   *
   * @throws IOException when the source is gone or cannot be read
   */
  String identity() throws IOException;

  /**
   * A name for one of the source's accounts that is unique across sources, such as {@code <server
   * id>/<account id>}: item ids are unique only within it, and the restore's id map is keyed by it.
   * The same source read again must give the same reference.
   */
  String accountRef(String accountId);

  List<Parsed<Domain>> domains();

  /** The classes of service; none by default (a format that has none: Maildir, mbox). */
  default List<Parsed<ClassOfService>> classesOfService() {
    return List.of();
  }

  /** The distribution lists; none by default. */
  default List<Parsed<DistributionList>> distributionLists() {
    return List.of();
  }

  /** The ids of the source's accounts, in a stable order. */
  List<String> accountIds();

  /**
   * One account, described. The engine reads several accounts at once (to learn which addresses an
   * operation claims), so this is called from several threads.
   */
  Parsed<Account> account(String accountId);

  /** Grants on the account's folders; an empty list when it shares nothing. */
  Parsed<List<Grant>> grants(String accountId);

  /**
   * Streams the records of an account whose type is in {@code types}. Undecodable records are
   * always returned, whatever their type, so the caller can report them.
   *
   * @throws IOException when the account's items cannot be opened at all
   */
  ItemStream items(String accountId, Set<ItemType> types) throws IOException;

  /** The blobs items name by digest (content that is not {@link Passing}). */
  BlobSource blobs();

  /**
   * The {@link #blobs()} of a source whose content always passes with its items (an archive, an
   * mbox): asking for a blob by digest is a mistake, answered as a missing blob.
   */
  static BlobSource passingOnly(String where) {
    return new BlobSource() {
      @Override
      public java.io.InputStream open(org.mailrestore.blob.BlobDigest digest) throws IOException {
        throw new org.mailrestore.blob.BlobException(
            org.mailrestore.blob.BlobException.Reason.MISSING,
            "the content of " + where + " passes with its items; it is never read by digest");
      }

      @Override
      public String describe(org.mailrestore.blob.BlobDigest digest) {
        return "content of " + where;
      }
    };
  }

  /**
   * What of an account's source could not be presented as items (unreadable files of a tree, a
   * truncated archive). Complete once the account's items have been read.
   */
  default List<SourceProblem> problems(String accountId) {
    return List.of();
  }

  /**
   * The caller is done with an account's contents: their blobs will not be opened again unless the
   * account's items are read again. A source that holds something per item to serve their blobs (a
   * Maildir tree: which file has which digest) lets it go, so its memory follows the accounts in
   * progress, not the whole run.
   */
  default void doneWith(String accountId) {}

  /**
   * The caller is done with these items of an account, read from {@link #items}: their blobs will
   * not be opened again for them (they are stored, skipped or failed). A source that holds
   * something per item to serve their blobs lets it go, so its memory follows the items in flight,
   * not the size of the account (a folder of a million messages). Items read and never passed here
   * are let go by {@link #doneWith}.
   */
  default void doneWithItems(String accountId, List<Item> items) {}

  @Override
  void close() throws IOException;
}
