package org.mailrestore.mailstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.sql.Sql;

/** The volumes blobs are restored to, and which blobs each holds (the dedup index). */
public final class VolumeStore {

  /**
   * A volume as registered.
   *
   * @param kind {@code local}, {@code s3}, {@code packed-local} or {@code packed-s3}
   * @param location a directory, or {@code s3://bucket/prefix}
   * @param s3Profile for S3 kinds, the configured profile that reaches it
   */
  public record VolumeRow(
      int id,
      String name,
      String kind,
      String location,
      String compression,
      long compressionThreshold,
      long packThreshold,
      String s3Profile) {}

  private static final String COLUMNS =
      "id, name, kind, location, compression, compression_threshold, pack_threshold, s3_profile";

  private final DataSource dataSource;

  public VolumeStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * The id of the named volume, registering it when new.
   *
   * @throws IllegalStateException when a volume of that name exists with another kind, location or
   *     compression
   */
  public int register(VolumeRow volume) throws SQLException {
    Optional<VolumeRow> existing = find(volume.name());
    if (existing.isPresent()) {
      VolumeRow v = existing.get();
      if (!v.kind().equals(volume.kind()) || !v.location().equals(volume.location())) {
        throw new IllegalStateException(
            "volume '"
                + volume.name()
                + "' is registered as "
                + v.kind()
                + " at "
                + v.location()
                + ", not "
                + volume.kind()
                + " at "
                + volume.location());
      }
      if (!v.compression().equals(volume.compression())) {
        // Read back with the wrong setting, a volume's blobs would not verify: say so at once.
        throw new IllegalStateException(
            "volume '"
                + volume.name()
                + "' is registered with compression "
                + v.compression()
                + ", not "
                + volume.compression()
                + " (give --volume-compression "
                + v.compression()
                + ")");
      }
      return v.id();
    }
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO volume (name, kind, location, compression, compression_threshold,"
                      + " pack_threshold, s3_profile) VALUES (?, ?, ?, ?, ?, ?, ?)"
                      + " ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                  java.sql.Statement.RETURN_GENERATED_KEYS)) {
            Sql.bind(
                ps,
                volume.name(),
                volume.kind(),
                volume.location(),
                volume.compression(),
                volume.compressionThreshold(),
                volume.packThreshold(),
                volume.s3Profile());
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              return keys.getInt(1);
            }
          }
        });
  }

  public Optional<VolumeRow> find(String name) throws SQLException {
    return Sql.queryOne(
        dataSource, "SELECT " + COLUMNS + " FROM volume WHERE name = ?", VolumeStore::row, name);
  }

  public List<VolumeRow> all() throws SQLException {
    return Sql.query(
        dataSource, "SELECT " + COLUMNS + " FROM volume ORDER BY id", VolumeStore::row);
  }

  private static VolumeRow row(ResultSet rs) throws SQLException {
    return new VolumeRow(
        rs.getInt(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getLong(6),
        rs.getLong(7),
        rs.getString(8));
  }

  /**
   * Records blobs a volume now holds, committed on their own: called once the blobs are durable and
   * before the items that refer to them commit. A blob recorded for a cluster that then fails is
   * still a true entry, found by the next cluster that needs the same digest. Rows already there
   * are kept (another cluster stored the same digest meanwhile; one is enough). Each row is true
   * alone, so the batch is sent in auto-commit, without a transaction around it: three round trips
   * fewer per cluster ({@code set autocommit} twice and the commit), a tenth of a small account's.
   *
   * @return the rows inserted (the others were there already), or -1 when the driver does not say
   */
  public long record(int volumeId, Collection<StoredBlob> blobs) throws SQLException {
    if (blobs.isEmpty()) {
      return 0;
    }
    // In key order (hex order is byte order): clusters sharing digests lock them in one order and
    // wait for each other briefly instead of deadlocking.
    List<StoredBlob> sorted =
        blobs.stream().sorted(Comparator.comparing(b -> b.digest().hex())).toList();
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT IGNORE INTO volume_blob"
                      + " (volume_id, digest, locator, raw_size, stored_size)"
                      + " VALUES (?, ?, ?, ?, ?)")) {
            for (StoredBlob b : sorted) {
              ps.setInt(1, volumeId);
              ps.setBytes(2, b.digest().toBytes());
              ps.setString(3, b.locator());
              ps.setLong(4, b.rawSize());
              ps.setLong(5, b.storedSize());
              ps.addBatch();
            }
            return inserted(ps.executeBatch(), ps);
          }
        });
  }

  /**
   * The rows a batch inserted: the sum of its counts, or, where the driver sent it as one bulk
   * command and has a count per row no more, the statement's total; -1 when neither is known.
   */
  private static long inserted(int[] counts, PreparedStatement ps) throws SQLException {
    long sum = 0;
    for (int n : counts) {
      if (n < 0) {
        long total = ps.getLargeUpdateCount();
        return total >= 0 ? total : -1;
      }
      sum += n;
    }
    return sum;
  }

  /** Whether the volume holds any blob (a volume new to this database holds none). */
  public boolean holdsAny(int volumeId) throws SQLException {
    return Sql.queryOne(
            dataSource, "SELECT 1 FROM volume_blob WHERE volume_id = ? LIMIT 1", rs -> 1, volumeId)
        .isPresent();
  }

  /** The blobs among {@code digests} the volume already holds: one keyed query per thousand. */
  public Map<BlobDigest, StoredBlob> present(int volumeId, Collection<BlobDigest> digests)
      throws SQLException {
    Map<BlobDigest, StoredBlob> found = new HashMap<>();
    if (digests.isEmpty()) {
      return found;
    }
    List<BlobDigest> list = new ArrayList<>(digests);
    Sql.withConnection(
        dataSource,
        c -> {
          for (int from = 0; from < list.size(); from += Sql.MAX_IN_LIST) {
            List<BlobDigest> chunk =
                list.subList(from, Math.min(list.size(), from + Sql.MAX_IN_LIST));
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT digest, locator, raw_size, stored_size FROM volume_blob"
                        + " WHERE volume_id = ? AND digest IN ("
                        + Sql.placeholders(chunk.size())
                        + ")")) {
              ps.setInt(1, volumeId);
              for (int i = 0; i < chunk.size(); i++) {
                ps.setBytes(i + 2, chunk.get(i).toBytes());
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  BlobDigest digest = BlobDigest.of(rs.getBytes(1));
                  found.put(
                      digest,
                      new StoredBlob(digest, rs.getString(2), rs.getLong(3), rs.getLong(4)));
                }
              }
            }
          }
          return null;
        });
    return found;
  }
}
