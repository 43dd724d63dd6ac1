package org.mailrestore.imap;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.imap.ImapRecords.TagRow;
import org.mailrestore.mail.Keywords;
import org.mailrestore.sql.Sql;

/** An account's tags as keywords: those restored, and those items carry without a definition. */
final class TagKeywords {

  private final ImapRecords records;
  private final int accountId;
  private final Map<String, TagRow> byName = new HashMap<>();
  private final Set<String> taken = new HashSet<>();
  private final List<TagRow> pending = new ArrayList<>();

  TagKeywords(ImapRecords records, int accountId) throws SQLException {
    this.records = records;
    this.accountId = accountId;
    records.tags(accountId).values().forEach(this::remember);
  }

  private void remember(TagRow row) {
    byName.put(row.name().toLowerCase(Locale.ROOT), row);
    taken.add(row.keyword().toLowerCase(Locale.ROOT));
  }

  synchronized Integer idOf(String name) {
    TagRow row = byName.get(name.toLowerCase(Locale.ROOT));
    return row == null ? null : row.id();
  }

  /** Records the tags of cluster 0 in the caller's transaction and tells the journal. */
  synchronized void record(Connection c, List<TagToWrite> tags, ClusterJournal journal)
      throws SQLException {
    pending.clear();
    if (tags.isEmpty()) {
      return;
    }
    int next = ImapRecords.allocate(c, accountId, tags.size());
    Set<String> used = new HashSet<>(taken);
    for (TagToWrite tag : tags) {
      String keyword = Keywords.of(tag.name(), used);
      used.add(keyword.toLowerCase(Locale.ROOT));
      TagRow row = new TagRow(next++, tag.name(), keyword);
      ImapRecords.addTag(c, accountId, row);
      pending.add(row);
      journal.restored(tag, row.id());
    }
  }

  synchronized void committed() {
    pending.forEach(this::remember);
    pending.clear();
  }

  /** The keyword of a tag an item carries; a tag nobody defined gets one now. */
  synchronized String keywordFor(String tagName) throws SQLException {
    TagRow row = byName.get(tagName.toLowerCase(Locale.ROOT));
    if (row != null) {
      return row.keyword();
    }
    String keyword = Keywords.of(tagName, taken);
    TagRow made =
        Sql.inTransaction(
            records.dataSource(),
            c -> {
              TagRow r = new TagRow(ImapRecords.allocate(c, accountId, 1), tagName, keyword);
              ImapRecords.addTag(c, accountId, r);
              return r;
            });
    remember(made);
    return keyword;
  }
}
