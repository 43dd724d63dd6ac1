package org.mailrestore.destination;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.FolderBatch.TagToWrite;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.kind.FailureReason;

/**
 * The engine's side of one cluster as the contracts play it, without the engine: it remembers what
 * the target said of each item, and commits one row per cluster in a table of its own, inside the
 * target's transaction ({@link #writeIn}) or in one of its own ({@link #commit}), so a test sees
 * whether the cluster's record and the target's writes committed together.
 */
public class RecordingJournal implements ClusterJournal {

  /** What the target said of an item it could not write. */
  public record Failure(int oldId, FailureReason reason, String detail) {}

  /** A folder made under another name than planned. */
  public record Renamed(int oldId, String name, String detail) {}

  private static final String TABLE = "contract_journal";

  private final DataSource database;
  private final String account;
  private final int seq;
  private final Map<Integer, Integer> mappings = new ConcurrentHashMap<>();
  private final List<Failure> failures = new CopyOnWriteArrayList<>();
  private final List<Renamed> renamed = new CopyOnWriteArrayList<>();
  private final AtomicLong itemsRestored = new AtomicLong();
  private final AtomicLong dedupHits = new AtomicLong();

  public RecordingJournal(DataSource database, String account, int seq) {
    this.database = database;
    this.account = account;
    this.seq = seq;
  }

  /** Creates the journal's table in the test's database. */
  public static void prepare(DataSource database) throws SQLException {
    try (Connection c = database.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + TABLE
              + " (account VARCHAR(255) NOT NULL, seq INT NOT NULL, items INT NOT NULL,"
              + " PRIMARY KEY (account, seq))");
    }
  }

  @Override
  public int seq() {
    return seq;
  }

  @Override
  public void restored(FolderToWrite folder, int newId) {
    mappings.put(folder.oldId(), newId);
  }

  @Override
  public void restored(TagToWrite tag, int newId) {
    mappings.put(tag.oldId(), newId);
  }

  @Override
  public void restored(ItemToWrite item, int newId) {
    mappings.put(item.oldId(), newId);
    itemsRestored.incrementAndGet();
  }

  @Override
  public void sameAs(TagToWrite tag, int existingId) {
    mappings.put(tag.oldId(), existingId);
  }

  @Override
  public void mapped(int oldId, int newId) {
    mappings.put(oldId, newId);
  }

  @Override
  public void renamed(FolderToWrite folder, String name, String detail) {
    renamed.add(new Renamed(folder.oldId(), name, detail));
  }

  @Override
  public void failed(ItemToWrite item, FailureReason reason, String detail) {
    failures.add(new Failure(item.oldId(), reason, detail));
  }

  @Override
  public void dedupHits(long count) {
    dedupHits.addAndGet(count);
  }

  @Override
  public void writeIn(Connection connection) throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "INSERT INTO " + TABLE + " (account, seq, items) VALUES (?, ?, ?)")) {
      ps.setString(1, account);
      ps.setInt(2, seq);
      ps.setLong(3, itemsRestored.get());
      ps.executeUpdate();
    }
  }

  @Override
  public void commit() throws SQLException {
    try (Connection c = database.getConnection()) {
      c.setAutoCommit(true);
      writeIn(c);
    }
  }

  /** Whether the cluster's record committed (in the target's transaction or its own). */
  public boolean committed() throws SQLException {
    try (Connection c = database.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM " + TABLE + " WHERE account = ? AND seq = ?")) {
      ps.setString(1, account);
      ps.setInt(2, seq);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  /** Source ids and the target's ids for them: items, folders, tags, other mappings. */
  public Map<Integer, Integer> mappings() {
    return Map.copyOf(mappings);
  }

  public List<Renamed> renamed() {
    return renamed;
  }

  public List<Failure> failures() {
    return List.copyOf(failures);
  }

  /** Items the target reported restored (found again in doubt included). */
  public long itemsRestored() {
    return itemsRestored.get();
  }

  public long dedupHits() {
    return dedupHits.get();
  }
}
