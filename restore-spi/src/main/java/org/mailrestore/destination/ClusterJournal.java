package org.mailrestore.destination;

import java.sql.Connection;
import java.sql.SQLException;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.kind.FailureReason;

/**
 * The engine's record of one cluster, which the target fills as it writes (what became of each
 * item) and then commits: the id map, failures, the checkpoint and the account's counters. A target
 * in the bookkeeping's database calls {@link #writeIn} inside its own transaction, so rows and
 * record commit together; any other target calls {@link #commit} once its writes are done.
 */
public interface ClusterJournal {

  /** The cluster's place in the account's item stream (0: folders and tags). */
  int seq();

  void restored(FolderToWrite folder, int newId);

  void restored(TagToWrite tag, int newId);

  void restored(ItemToWrite item, int newId);

  /** The mailbox already has a tag of this name: the backup's tag is mapped onto it (skipped). */
  void sameAs(TagToWrite tag, int existingId);

  /** A mapping that is no item of the backup (the recovery folder). */
  void mapped(int oldId, int newId);

  /**
   * The folder was made under another name than the one planned, because the target refused that
   * one: a repair, reported as a warning.
   *
   * @param name the name it was made under
   * @param detail why, in the target's words
   */
  void renamed(FolderToWrite folder, String name, String detail);

  /** The item could not be written, with the reason a person can act on. */
  void failed(ItemToWrite item, FailureReason reason, String detail);

  /** Contents not written because the target held them already (deduplicated). */
  void dedupHits(long count);

  /**
   * Writes the record on the target's connection, inside the target's transaction.
   *
   * @throws SQLException when it cannot be written, or another instance took the account over: the
   *     transaction must roll back
   */
  void writeIn(Connection connection) throws SQLException;

  /** Commits the record in a transaction of its own (targets outside the bookkeeping database). */
  void commit() throws SQLException;
}
