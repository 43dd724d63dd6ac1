package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.backup.Account;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.Domain;
import org.mailrestore.backup.Item;
import org.mailrestore.backup.ItemEntry;
import org.mailrestore.backup.ItemStream;
import org.mailrestore.backup.ItemType;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.Parsed;
import org.mailrestore.backup.PointInTime;
import org.mailrestore.backup.Revision;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mailstore.ClusterWrite;
import org.mailrestore.mailstore.ClusterWrite.Counters;
import org.mailrestore.mailstore.ClusterWrite.IdMapping;
import org.mailrestore.mailstore.ClusterWrite.TagLink;
import org.mailrestore.mailstore.IdSpace;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.ProvisioningStore;
import org.mailrestore.mailstore.TargetAccount;
import org.mailrestore.restore.OperationStore;
import org.mailrestore.restore.RestoreRequest;

/**
 * The mailstore writer against the limit of the same database: the same rows (items, their tags,
 * their id mappings) written in clusters by {@link MailboxStore#commit} (with its checkpoint,
 * counters and lease check) and by plain batched JDBC inserts, in one run, on fresh databases of
 * the same schema. Only the database work is timed: decoding and building rows happens before.
 */
final class WriterBench {

  /** Parameters. */
  record Params(
      String serverUrl,
      String user,
      String password,
      int items,
      int accounts,
      int clusterSize,
      int naiveSample,
      Path workDir) {}

  /** One way of writing: how much, how long. */
  record Measure(String name, long items, long rows, double seconds) {
    double rowsPerSecond() {
      return rows / seconds;
    }

    double itemsPerSecond() {
      return items / seconds;
    }
  }

  /** The results of a run. */
  record Report(
      String server,
      long items,
      long rows,
      Duration generation,
      Measure raw,
      Measure writer,
      Measure naive) {
    double writerFraction() {
      return writer.rowsPerSecond() / raw.rowsPerSecond();
    }
  }

  /** One cluster's rows, built before the clock starts. */
  private record Cluster(List<ItemRow> items, List<TagLink> links, List<IdMapping> mappings) {
    long rows() {
      return items.size() + (long) links.size() + mappings.size();
    }
  }

  private static final String INSERT_ITEM =
      "INSERT INTO mail_item (mailbox_id, id, type, folder_id, uuid, date, size, flags, name,"
          + " sender, subject, color, view, blob_digest, volume_id, metadata)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private final Params p;

  WriterBench(Params params) {
    this.p = params;
  }

  Report run() throws IOException, SQLException {
    Path backup = p.workDir().resolve("backup");
    long started = System.nanoTime();
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(p.accounts())
            .withItemsPerAccount(p.items() / p.accounts())
            .withShares(false)
            // Every generated item is live, so exactly the requested number is written.
            .withFractions(0, 0.2, 0.1)
            .withMetadataOnly(true),
        backup);
    Duration generation = Duration.ofNanos(System.nanoTime() - started);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup));
        BenchDatabase rawDb = new BenchDatabase(p.serverUrl(), p.user(), p.password(), "raw", 2);
        BenchDatabase writerDb =
            new BenchDatabase(p.serverUrl(), p.user(), p.password(), "writer", 2);
        BenchDatabase naiveDb =
            new BenchDatabase(p.serverUrl(), p.user(), p.password(), "naive", 2)) {
      String operation = java.util.UUID.randomUUID().toString();
      OperationStore operations = new OperationStore(writerDb.dataSource);
      operations.create(operation, RestoreRequest.local(backup.toString()), "bench", null);
      MailboxStore writer = new MailboxStore(writerDb.dataSource);
      long items = 0;
      long rows = 0;
      long rawNanos = 0;
      long writerNanos = 0;
      Measure naive = null;
      int index = 0;
      for (String sourceId : reader.accountIds()) {
        Account account = ((Parsed.Ok<Account>) reader.account(sourceId)).value();
        int mailbox = provision(rawDb.dataSource, account);
        if (provision(writerDb.dataSource, account) != mailbox
            || provision(naiveDb.dataSource, account) != mailbox) {
          throw new IllegalStateException("the benchmark databases diverged");
        }
        operations.addAccount(operation, sourceId, account.name());
        int sourceRef = writer.sourceRef(reader.accountRef(sourceId));
        operations.accountProvisioned(
            operation,
            sourceId,
            account.name(),
            mailbox,
            "bench-" + index,
            mailbox,
            sourceRef,
            true,
            org.mailrestore.restore.AccountState.PROVISIONED);
        // Earlier accounts stay leased to the benchmark, so the claim takes this one.
        if (!operations
            .claimNextAccount(operation, "bench", 3600)
            .orElseThrow()
            .sourceAccountId()
            .equals(sourceId)) {
          throw new IllegalStateException("claimed another account than " + sourceId);
        }
        List<Cluster> clusters =
            clusters(
                reader,
                sourceId,
                mailbox,
                rawDb.dataSource,
                writerDb.dataSource,
                naiveDb.dataSource);
        for (Cluster c : clusters) {
          items += c.items().size();
          rows += c.rows();
        }
        // Alternate which path goes first, so warm caches favour neither.
        if (index % 2 == 0) {
          rawNanos += timeRaw(rawDb.dataSource, mailbox, sourceRef, clusters);
          writerNanos +=
              timeWriter(writer, operation, sourceId, new IdSpace(mailbox, sourceRef), clusters);
        } else {
          writerNanos +=
              timeWriter(writer, operation, sourceId, new IdSpace(mailbox, sourceRef), clusters);
          rawNanos += timeRaw(rawDb.dataSource, mailbox, sourceRef, clusters);
        }
        if (naive == null) {
          naive = timeNaive(naiveDb.dataSource, mailbox, sourceRef, clusters);
        }
        index++;
      }
      return new Report(
          rawDb.serverVersion(),
          items,
          rows,
          generation,
          new Measure("raw batched JDBC insert", items, rows, rawNanos / 1e9),
          new Measure("mailrestore writer", items, rows, writerNanos / 1e9),
          naive);
    }
  }

  private static int provision(DataSource ds, Account account) throws SQLException {
    ProvisioningStore store = new ProvisioningStore(ds);
    int domain = store.ensureDomain(new Domain(account.domain(), "active", Map.of()));
    Optional<TargetAccount> existing = store.findAccount(account.name());
    if (existing.isPresent()) {
      return existing.get().mailboxId();
    }
    return store
        .createAccount(account.id(), account.name(), domain, null, "active", false, null)
        .mailboxId();
  }

  /** Decodes the account's content items and builds their rows, cluster by cluster. */
  private List<Cluster> clusters(
      BackupReader reader, String sourceId, int mailbox, DataSource... databases)
      throws IOException, SQLException {
    Map<String, Integer> tagIds = new HashMap<>();
    List<Cluster> clusters = new ArrayList<>();
    int nextId = 10_000;
    List<ItemRow> items = new ArrayList<>(p.clusterSize());
    List<TagLink> links = new ArrayList<>();
    List<IdMapping> mappings = new ArrayList<>(p.clusterSize());
    Map<ItemType, Boolean> container = new HashMap<>();
    for (ItemType t : ItemType.values()) {
      container.put(t, t.isContainer());
    }
    try (ItemStream stream = reader.items(sourceId, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        if (!(stream.next() instanceof ItemEntry.Decoded(Item item, String location))
            || container.get(item.type())) {
          continue;
        }
        Optional<Revision> state = PointInTime.LATEST.select(item);
        if (state.isEmpty()) {
          continue;
        }
        int id = nextId++;
        items.add(
            ItemRow.of(
                id,
                item.type(),
                state.get().folderId(),
                state.get().name(),
                state.get(),
                state.get().digest() == null ? null : 1));
        mappings.add(new IdMapping(item.id(), id));
        for (String tag : state.get().tags()) {
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
        if (items.size() == p.clusterSize()) {
          clusters.add(new Cluster(items, links, mappings));
          items = new ArrayList<>(p.clusterSize());
          links = new ArrayList<>();
          mappings = new ArrayList<>(p.clusterSize());
        }
      }
    }
    if (!items.isEmpty()) {
      clusters.add(new Cluster(items, links, mappings));
    }
    return clusters;
  }

  private static long timeWriter(
      MailboxStore writer, String operation, String sourceId, IdSpace space, List<Cluster> clusters)
      throws SQLException {
    long started = System.nanoTime();
    int seq = 1;
    for (Cluster c : clusters) {
      writer.commit(
          new ClusterWrite(
              operation,
              sourceId,
              "bench",
              space,
              seq++,
              c.items(),
              List.of(),
              c.links(),
              c.mappings(),
              List.of(),
              List.of(),
              List.of(),
              new Counters(c.items().size(), 0, 0, 0, 0)));
    }
    return System.nanoTime() - started;
  }

  /** The limit: the same rows, batched, one transaction per cluster, nothing else. */
  private static long timeRaw(DataSource ds, int mailbox, int sourceRef, List<Cluster> clusters)
      throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      long started = System.nanoTime();
      try (PreparedStatement item = c.prepareStatement(INSERT_ITEM);
          PreparedStatement tag =
              c.prepareStatement(
                  "INSERT INTO tagged_item (mailbox_id, item_id, tag_id) VALUES (?, ?, ?)");
          PreparedStatement map =
              c.prepareStatement(
                  "INSERT INTO restore_id_map (mailbox_id, source_id, old_id, new_id)"
                      + " VALUES (?, ?, ?, ?)")) {
        for (Cluster cluster : clusters) {
          for (ItemRow r : cluster.items()) {
            bindItem(item, mailbox, r);
            item.addBatch();
          }
          item.executeBatch();
          for (TagLink l : cluster.links()) {
            tag.setInt(1, mailbox);
            tag.setInt(2, l.itemId());
            tag.setInt(3, l.tagId());
            tag.addBatch();
          }
          tag.executeBatch();
          for (IdMapping m : cluster.mappings()) {
            map.setInt(1, mailbox);
            map.setInt(2, sourceRef);
            map.setInt(3, m.oldId());
            map.setInt(4, m.newId());
            map.addBatch();
          }
          map.executeBatch();
          c.commit();
        }
      }
      return System.nanoTime() - started;
    }
  }

  /** What published restores do: one item at a time, one commit per item. A sample only. */
  private Measure timeNaive(DataSource ds, int mailbox, int sourceRef, List<Cluster> clusters)
      throws SQLException {
    long items = 0;
    long rows = 0;
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      long started = System.nanoTime();
      try (PreparedStatement item = c.prepareStatement(INSERT_ITEM);
          PreparedStatement tag =
              c.prepareStatement(
                  "INSERT INTO tagged_item (mailbox_id, item_id, tag_id) VALUES (?, ?, ?)");
          PreparedStatement map =
              c.prepareStatement(
                  "INSERT INTO restore_id_map (mailbox_id, source_id, old_id, new_id)"
                      + " VALUES (?, ?, ?, ?)")) {
        outer:
        for (Cluster cluster : clusters) {
          Map<Integer, List<TagLink>> linksByItem = new HashMap<>();
          cluster
              .links()
              .forEach(l -> linksByItem.computeIfAbsent(l.itemId(), k -> new ArrayList<>()).add(l));
          for (int i = 0; i < cluster.items().size(); i++) {
            if (items == p.naiveSample()) {
              break outer;
            }
            ItemRow r = cluster.items().get(i);
            bindItem(item, mailbox, r);
            item.executeUpdate();
            for (TagLink l : linksByItem.getOrDefault(r.id(), List.of())) {
              tag.setInt(1, mailbox);
              tag.setInt(2, l.itemId());
              tag.setInt(3, l.tagId());
              tag.executeUpdate();
              rows++;
            }
            IdMapping m = cluster.mappings().get(i);
            map.setInt(1, mailbox);
            map.setInt(2, sourceRef);
            map.setInt(3, m.oldId());
            map.setInt(4, m.newId());
            map.executeUpdate();
            c.commit();
            items++;
            rows += 2;
          }
        }
      }
      return new Measure(
          "one commit per item (sample)", items, rows, (System.nanoTime() - started) / 1e9);
    }
  }

  // Plain setters, as any JDBC code writes them.
  private static void bindItem(PreparedStatement ps, int mailbox, ItemRow r) throws SQLException {
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
}
