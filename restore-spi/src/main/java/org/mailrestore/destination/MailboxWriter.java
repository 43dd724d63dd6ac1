package org.mailrestore.destination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.Passing;

/**
 * Phase 2 of one account in the target: its folders and tags (cluster 0), then its content in
 * clusters. Only the instance holding the account's lease writes to it; clusters of one account may
 * be written concurrently (each is its own transaction).
 */
public interface MailboxWriter extends AutoCloseable {

  /**
   * The names of the folder-like items under each parent (by id in the target), lower case: what a
   * restored folder's name must not collide with.
   */
  Map<Integer, Set<String>> folderNamesByParent() throws SQLException, IOException;

  /** Writes cluster 0: the folders (parents first) and tags, then commits the journal. */
  void writeFolders(FolderBatch batch, ClusterJournal journal) throws SQLException, IOException;

  /**
   * Takes content that can be read only now (it passes in an archive read once) and keeps it for
   * the cluster that will hold its item: stored (a blob volume), being stored (the cluster waits
   * for the write and fails the item alone if it failed), or spooled. The engine does not stage the
   * content of an item an earlier run restored into the mailbox.
   *
   * @param type the type of the item the content is of
   * @param declared the digest the source declares, or null when it declares none
   * @throws IOException when the content cannot be read whole (a truncated archive), or does not
   *     match what was declared ({@link org.mailrestore.blob.BlobException})
   */
  Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException;

  /**
   * Writes a cluster of content, tells the journal what became of each item, then commits it. May
   * be called again for the same cluster after a failure, with {@link ItemBatch#inDoubt()} set.
   */
  void writeItems(ItemBatch batch, ClusterJournal journal) throws SQLException, IOException;

  /** Called once every cluster of the account is written. */
  void finish() throws SQLException, IOException;

  /** Lets go of what the writer holds (connections, sessions); never fails. */
  @Override
  default void close() {}
}
