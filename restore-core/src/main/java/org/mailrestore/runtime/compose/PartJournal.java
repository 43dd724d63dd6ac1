package org.mailrestore.runtime.compose;

import java.sql.Connection;
import java.sql.SQLException;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.kind.FailureReason;

/**
 * One part's view of a cluster's journal: what the part writes is told to the one journal with the
 * part's ids made composed ones; the commit is the composition's, not the part's. A part that
 * commits with the bookkeeping ({@code committing}) is written last and commits the journal in its
 * own transaction; any other part's commit waits for the composition to commit once every part has
 * written. Tags are kept by every part, but only the first part's ids are the journal's.
 */
final class PartJournal implements ClusterJournal {

  private final ClusterJournal journal;
  private final int part;
  private final boolean committing;

  PartJournal(ClusterJournal journal, int part, boolean committing) {
    this.journal = journal;
    this.part = part;
    this.committing = committing;
  }

  @Override
  public int seq() {
    return journal.seq();
  }

  @Override
  public void restored(FolderToWrite folder, int newId) {
    journal.restored(folder, PartIds.encode(part, newId));
  }

  @Override
  public void restored(TagToWrite tag, int newId) {
    if (part == 0) {
      journal.restored(tag, newId);
    }
  }

  @Override
  public void restored(ItemToWrite item, int newId) {
    journal.restored(item, PartIds.encode(part, newId));
  }

  @Override
  public void sameAs(TagToWrite tag, int existingId) {
    if (part == 0) {
      journal.sameAs(tag, existingId);
    }
  }

  @Override
  public void mapped(int oldId, int newId) {
    if (part == 0) {
      journal.mapped(oldId, newId);
    }
  }

  @Override
  public void renamed(FolderToWrite folder, String name, String detail) {
    journal.renamed(folder, name, detail);
  }

  @Override
  public void failed(ItemToWrite item, FailureReason reason, String detail) {
    journal.failed(item, reason, detail);
  }

  @Override
  public void dedupHits(long count) {
    journal.dedupHits(count);
  }

  @Override
  public void writeIn(Connection connection) throws SQLException {
    if (committing) {
      journal.writeIn(connection);
    }
  }

  @Override
  public void commit() throws SQLException {
    if (committing) {
      journal.commit();
    }
  }
}
