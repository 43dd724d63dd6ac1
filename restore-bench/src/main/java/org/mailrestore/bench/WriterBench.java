package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.bench.RawRows.Cluster;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailboxStore;
import org.mailrestore.mailstore.MailboxStore.TagLink;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.Claim;
import org.mailrestore.restore.bookkeeping.ClusterRecord;
import org.mailrestore.restore.bookkeeping.IdMap;
import org.mailrestore.restore.bookkeeping.IdSpace;

/**
 * The mailstore writer against the limit of the same database: the same rows (items, their tags,
 * their id mappings) written in clusters by {@link MailboxStore#write} (with its checkpoint,
 * counters and lease check) and by plain batched JDBC inserts, in one run, on fresh databases of
 * the same schema. Only the database work is timed: decoding and building rows happens before.
 */
final class WriterBench {

  /** The benchmark's one claim on every account it writes. */
  private static final Claim BENCH = new Claim("bench", 1);

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
      Bookkeeping books = new Bookkeeping(writerDb.dataSource);
      books.operations().create(operation, RestoreRequest.local(backup.toString()), "bench", null);
      MailboxStore writer = new MailboxStore(writerDb.dataSource);
      long items = 0;
      long rows = 0;
      long rawNanos = 0;
      long writerNanos = 0;
      Measure naive = null;
      int index = 0;
      for (String sourceId : reader.accountIds()) {
        Account account = ((Parsed.Ok<Account>) reader.account(sourceId)).value();
        int mailbox = RawRows.provision(rawDb.dataSource, account);
        if (RawRows.provision(writerDb.dataSource, account) != mailbox
            || RawRows.provision(naiveDb.dataSource, account) != mailbox) {
          throw new IllegalStateException("the benchmark databases diverged");
        }
        books.accounts().add(operation, sourceId, account.name());
        int sourceRef = books.idMap().sourceRef(reader.accountRef(sourceId));
        books
            .accounts()
            .provisioned(
                operation,
                sourceId,
                new ProvisionedAccount(mailbox, "bench-" + index, account.name(), true),
                sourceRef,
                org.mailrestore.restore.AccountState.PROVISIONED);
        // Earlier accounts stay leased to the benchmark, so the claim takes this one.
        if (!books
            .accounts()
            .claimNext(operation, BENCH, 3600)
            .orElseThrow()
            .sourceAccountId()
            .equals(sourceId)) {
          throw new IllegalStateException("claimed another account than " + sourceId);
        }
        List<Cluster> clusters =
            RawRows.build(
                reader,
                sourceId,
                mailbox,
                p.clusterSize(),
                null,
                rawDb.dataSource,
                writerDb.dataSource,
                naiveDb.dataSource);
        for (Cluster c : clusters) {
          items += c.items().size();
          rows += c.rows();
        }
        // Alternate which path goes first, so warm caches favour neither.
        if (index % 2 == 0) {
          rawNanos += RawRows.insert(rawDb.dataSource, mailbox, sourceRef, clusters, 1);
          writerNanos +=
              timeWriter(
                  writer, books, operation, sourceId, new IdSpace(mailbox, sourceRef), clusters);
        } else {
          writerNanos +=
              timeWriter(
                  writer, books, operation, sourceId, new IdSpace(mailbox, sourceRef), clusters);
          rawNanos += RawRows.insert(rawDb.dataSource, mailbox, sourceRef, clusters, 1);
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

  private static long timeWriter(
      MailboxStore writer,
      Bookkeeping books,
      String operation,
      String sourceId,
      IdSpace space,
      List<Cluster> clusters)
      throws SQLException {
    RestoreMetrics metrics = RestoreMetrics.inMemory();
    long started = System.nanoTime();
    int seq = 1;
    for (Cluster c : clusters) {
      // The journal the engine hands the mailstore: id map, checkpoint, counters (lease checked).
      ClusterRecord journal =
          new ClusterRecord(
              books.dataSource(),
              new ClusterRecord.Header(
                  operation, sourceId, BENCH, Lease.HELD, space, seq++, 0, 0, List.of()),
              metrics);
      for (IdMap.Mapping m : c.mappings()) {
        journal.mapped(m.oldId(), m.newId());
      }
      writer.write(space.targetKey(), c.items(), List.of(), c.links(), journal);
    }
    return System.nanoTime() - started;
  }

  /** What published restores do: one item at a time, one commit per item. A sample only. */
  private Measure timeNaive(DataSource ds, int mailbox, int sourceRef, List<Cluster> clusters)
      throws SQLException {
    long items = 0;
    long rows = 0;
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      long started = System.nanoTime();
      try (PreparedStatement item = c.prepareStatement(RawRows.INSERT_ITEM);
          PreparedStatement tag = c.prepareStatement(RawRows.INSERT_TAG_LINK);
          PreparedStatement map = c.prepareStatement(RawRows.INSERT_MAPPING)) {
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
            RawRows.bindItem(item, mailbox, r);
            item.executeUpdate();
            for (TagLink l : linksByItem.getOrDefault(r.id(), List.of())) {
              RawRows.bindLink(tag, mailbox, l);
              tag.executeUpdate();
              rows++;
            }
            IdMap.Mapping m = cluster.mappings().get(i);
            RawRows.bindMapping(map, mailbox, sourceRef, m);
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
}
