package org.mailrestore.destination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Set;
import org.mailrestore.mail.ItemType;

/**
 * Where restores write: our MariaDB mailstore with its blob volumes, a live IMAP server. It takes
 * the three phases (provisioning, each account's folders and items in clusters, shares) and reads
 * back what it holds for {@code verify} and {@code export}.
 *
 * <p>The engine keeps the bookkeeping (operations, accounts, the id map, checkpoints, failures) in
 * its own tables; a target writes only its own storage. Each cluster comes with a {@link
 * ClusterJournal}: a target in the bookkeeping's database commits it in the same transaction as its
 * rows ({@link #atomicCommits()}); any other target commits it right after its writes, and then
 * must find, on a retry or a resume, what it wrote before the journal was committed (see {@link
 * ItemBatch#inDoubt()} and docs/decisions/0013-sources-and-targets.md).
 *
 * <p>Contract (checked by {@code MailTargetContract} for every implementation): provisioning is
 * idempotent; a cluster written twice (a retry, a resume, a re-run) never holds an item twice; what
 * is read back is what was written.
 */
public interface MailTarget extends AutoCloseable {

  /** Where the target is, for people (no secrets). */
  String describe();

  /**
   * True when a cluster's rows and its journal commit in one transaction, so a cluster is either
   * wholly there or not at all; false when the journal follows the target's own writes.
   */
  boolean atomicCommits();

  /**
   * The content items it holds (an IMAP server: messages only). The engine leaves the others out
   * and reports them once per account, with their counts, rather than failing each one.
   */
  default Set<ItemType> contentTypes() {
    return ItemType.contents();
  }

  /** Phase 1: domains, classes of service, lists, accounts, aliases. */
  TargetProvisioning provisioning();

  /** Phase 2: a writer for one provisioned account's mailbox. */
  MailboxWriter mailbox(ProvisionedAccount account, WriteContext context)
      throws SQLException, IOException;

  /** Phase 3: grants and mountpoints. */
  TargetShares shares();

  /** What the target holds, for {@code verify} and {@code export}. */
  RestoredStore readBack() throws SQLException, IOException;

  /**
   * Checks that the target can be written now, without writing: what a readiness probe asks.
   *
   * @throws IOException saying what is wrong
   */
  void check() throws IOException;

  @Override
  void close() throws IOException;
}
