package org.mailrestore.mailstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;

/** The volumes blobs are restored to, and which blobs each holds (the dedup index). */
public final class VolumeStore {

  /** A volume row. */
  public record VolumeRow(
      int id, String name, String kind, String location, String compression, long threshold) {}

  private final DataSource dataSource;

  public VolumeStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * The id of the named volume, registering it when new.
   *
   * @throws IllegalStateException when a volume of that name exists with another kind or location
   */
  public int register(String name, String kind, String location, String compression, long threshold)
      throws SQLException {
    Optional<VolumeRow> existing = find(name);
    if (existing.isPresent()) {
      VolumeRow v = existing.get();
      if (!v.kind().equals(kind) || !v.location().equals(location)) {
        throw new IllegalStateException(
            "volume '"
                + name
                + "' is registered as "
                + v.kind()
                + " at "
                + v.location()
                + ", not "
                + kind
                + " at "
                + location);
      }
      return v.id();
    }
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO volume (name, kind, location, compression, compression_threshold)"
                      + " VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                  Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.setString(2, kind);
            ps.setString(3, location);
            ps.setString(4, compression);
            ps.setLong(5, threshold);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              return keys.getInt(1);
            }
          }
        });
  }

  public Optional<VolumeRow> find(String name) throws SQLException {
    return all().stream().filter(v -> v.name().equals(name)).findFirst();
  }

  public List<VolumeRow> all() throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          List<VolumeRow> rows = new ArrayList<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT id, name, kind, location, compression, compression_threshold"
                          + " FROM volume ORDER BY id");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              rows.add(
                  new VolumeRow(
                      rs.getInt(1),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      rs.getString(5),
                      rs.getLong(6)));
            }
          }
          return rows;
        });
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
          for (int from = 0; from < list.size(); from += MailboxStore.MAX_IN_LIST) {
            List<BlobDigest> chunk =
                list.subList(from, Math.min(list.size(), from + MailboxStore.MAX_IN_LIST));
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
