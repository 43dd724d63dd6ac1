package org.mailrestore.bench;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.mail.Revision;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.MailboxStore.TagLink;
import org.mailrestore.mailstore.ProvisioningStore;
import org.mailrestore.mailstore.TargetAccount;
import org.mailrestore.restore.bookkeeping.IdMap.Mapping;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * The database limit of the benchmarks: an account's content items decoded into the rows a restore
 * writes (items, tag links, id mappings), built before any clock starts, then written with plain
 * batched JDBC inserts, one transaction per cluster and nothing else.
 */
final class RawRows {

  /** One cluster's rows; {@code blobs}: the volume rows of the blobs first seen in it. */
  record Cluster(
      List<ItemRow> items, List<TagLink> links, List<Mapping> mappings, List<BlobRow> blobs) {
    long rows() {
      return items.size() + (long) links.size() + mappings.size() + blobs.size();
    }
  }

  /** A blob's row in the volume index. */
  record BlobRow(BlobDigest digest, long size) {}

  static final String INSERT_ITEM =
      "INSERT INTO mail_item (mailbox_id, id, type, folder_id, uuid, date, size, flags, name,"
          + " sender, subject, color, view, blob_digest, volume_id, metadata)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  static final String INSERT_TAG_LINK =
      "INSERT INTO tagged_item (mailbox_id, item_id, tag_id) VALUES (?, ?, ?)";

  /** The one volume of a benchmark database: the first registered. */
  static final int RAW_VOLUME_ID = 1;

  static final String INSERT_BLOB =
      "INSERT IGNORE INTO volume_blob (volume_id, digest, locator, raw_size, stored_size)"
          + " VALUES ("
          + RAW_VOLUME_ID
          + ", ?, 'raw', ?, ?)";
  static final String INSERT_MAPPING =
      "INSERT INTO restore_id_map (target_key, source_id, old_id, new_id) VALUES (?, ?, ?, ?)";

  private RawRows() {}

  /** Creates the account (and its domain) when missing; returns its mailbox id. */
  static int provision(DataSource ds, Account account) throws SQLException {
    ProvisioningStore store = new ProvisioningStore(ds);
    int domain = store.ensureDomain(Domain.active(account.domain()));
    Optional<TargetAccount> existing = store.findAccount(account.name());
    if (existing.isPresent()) {
      return existing.get().mailboxId();
    }
    return store
        .createAccount(account.id(), account.name(), domain, null, "active", false, null)
        .mailboxId();
  }

  /**
   * Decodes an account's live content items into rows, cluster by cluster; their tags are created
   * in every given database. With {@code blobs} not null, the blobs the items reference are added
   * to it (digest to size), and each cluster also carries the volume rows of the blobs first seen
   * in it.
   */
  static List<Cluster> build(
      BackupReader reader,
      String sourceId,
      int mailbox,
      int clusterSize,
      Map<BlobDigest, Long> blobs,
      DataSource... databases)
      throws IOException, SQLException {
    Map<String, Integer> tagIds = new HashMap<>();
    List<Cluster> clusters = new ArrayList<>();
    int nextId = 10_000;
    List<ItemRow> items = new ArrayList<>(clusterSize);
    List<TagLink> links = new ArrayList<>();
    List<Mapping> mappings = new ArrayList<>(clusterSize);
    List<BlobRow> blobRows = new ArrayList<>();
    try (ItemStream stream = reader.items(sourceId, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        if (!(stream.next() instanceof ItemEntry.Decoded(Item item, String location, var passing))
            || item.type().isContainer()) {
          continue;
        }
        Optional<Revision> state = PointInTime.LATEST.select(item);
        if (state.isEmpty()) {
          continue;
        }
        Revision live = state.get();
        int id = nextId++;
        items.add(
            ItemRow.of(
                id,
                item.type(),
                live.folderId(),
                live.name(),
                live,
                live.digest() == null ? null : 1));
        mappings.add(new Mapping(item.id(), id));
        if (blobs != null
            && live.digest() != null
            && blobs.put(live.digest(), live.size()) == null) {
          blobRows.add(new BlobRow(live.digest(), live.size()));
        }
        for (String tag : live.tags()) {
          Integer tagId = tagIds.get(tag.toLowerCase(Locale.ROOT));
          if (tagId == null) {
            tagId = nextId++;
            for (DataSource ds : databases) {
              new MailboxStore(ds).ensureTag(mailbox, tag, null, tagId);
            }
            tagIds.put(tag.toLowerCase(Locale.ROOT), tagId);
          }
          links.add(new TagLink(id, tagId));
        }
        if (items.size() == clusterSize) {
          clusters.add(new Cluster(items, links, mappings, blobRows));
          items = new ArrayList<>(clusterSize);
          links = new ArrayList<>();
          mappings = new ArrayList<>(clusterSize);
          blobRows = new ArrayList<>();
        }
      }
    }
    if (!items.isEmpty()) {
      clusters.add(new Cluster(items, links, mappings, blobRows));
    }
    return clusters;
  }

  /**
   * Inserts the clusters over {@code connections} connections at once (cluster i on connection i
   * mod n), one transaction per cluster; returns the nanoseconds it took.
   */
  static long insert(
      DataSource ds, int mailbox, int sourceRef, List<Cluster> clusters, int connections)
      throws SQLException {
    if (connections == 1) {
      long started = System.nanoTime();
      insertEvery(ds, mailbox, sourceRef, clusters, 0, 1);
      return System.nanoTime() - started;
    }
    try (ExecutorService threads = Executors.newFixedThreadPool(connections)) {
      long started = System.nanoTime();
      List<Future<Void>> parts = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        int first = i;
        parts.add(
            threads.submit(() -> {
              insertEvery(ds, mailbox, sourceRef, clusters, first, connections);
              return null;
            }));
      }
      for (Future<Void> part : parts) {
        try {
          part.get();
        } catch (ExecutionException e) {
          throw e.getCause() instanceof SQLException sql ? sql : new SQLException(e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLException(e);
        }
      }
      return System.nanoTime() - started;
    }
  }

  private static void insertEvery(
      DataSource ds, int mailbox, int sourceRef, List<Cluster> clusters, int first, int step)
      throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement item = c.prepareStatement(INSERT_ITEM);
          PreparedStatement tag = c.prepareStatement(INSERT_TAG_LINK);
          PreparedStatement map = c.prepareStatement(INSERT_MAPPING);
          PreparedStatement blob = c.prepareStatement(INSERT_BLOB)) {
        for (int i = first; i < clusters.size(); i += step) {
          Cluster cluster = clusters.get(i);
          if (!cluster.blobs().isEmpty()) {
            for (BlobRow b : cluster.blobs()) {
              blob.setBytes(1, b.digest().toBytes());
              blob.setLong(2, b.size());
              blob.setLong(3, b.size());
              blob.addBatch();
            }
            blob.executeBatch();
          }
          for (ItemRow r : cluster.items()) {
            bindItem(item, mailbox, r);
            item.addBatch();
          }
          item.executeBatch();
          for (TagLink l : cluster.links()) {
            bindLink(tag, mailbox, l);
            tag.addBatch();
          }
          tag.executeBatch();
          for (Mapping m : cluster.mappings()) {
            bindMapping(map, mailbox, sourceRef, m);
            map.addBatch();
          }
          map.executeBatch();
          c.commit();
        }
      }
    }
  }

  // Plain setters, as any JDBC code writes them.
  static void bindItem(PreparedStatement ps, int mailbox, ItemRow r) throws SQLException {
    ps.setInt(1, mailbox);
    ps.setInt(2, r.id());
    ps.setInt(3, r.type());
    ps.setInt(4, r.folderId());
    ps.setString(5, r.uuid());
    ps.setLong(6, r.date());
    ps.setLong(7, r.size());
    ps.setInt(8, r.flags());
    ps.setString(9, r.name());
    ps.setString(10, r.sender());
    ps.setString(11, r.subject());
    if (r.color() == null) {
      ps.setNull(12, Types.SMALLINT);
    } else {
      ps.setInt(12, r.color());
    }
    ps.setString(13, r.view());
    ps.setBytes(14, r.digest() == null ? null : r.digest().toBytes());
    if (r.volumeId() == null) {
      ps.setNull(15, Types.SMALLINT);
    } else {
      ps.setInt(15, r.volumeId());
    }
    ps.setString(16, r.metadata());
  }

  static void bindLink(PreparedStatement ps, int mailbox, TagLink l) throws SQLException {
    ps.setInt(1, mailbox);
    ps.setInt(2, l.itemId());
    ps.setInt(3, l.tagId());
  }

  static void bindMapping(PreparedStatement ps, int mailbox, int sourceRef, Mapping m)
      throws SQLException {
    ps.setInt(1, mailbox);
    ps.setInt(2, sourceRef);
    ps.setInt(3, m.oldId());
    ps.setInt(4, m.newId());
  }
}
