package org.mailrestore.restore.bookkeeping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.mailrestore.sql.Sql;

/**
 * The map from source item ids to restored ids, per target mailbox and source account: what makes
 * re-runs skip, what phase 3 and {@code verify} follow. Keyed lookups, and key ranges.
 */
public final class IdMap {

  private final DataSource dataSource;

  public IdMap(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * The id of a source account (for the id map), registering it the first time.
   *
   * @param ref the source's {@link org.mailrestore.source.MailSource#accountRef}
   */
  public int sourceRef(String ref) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO restore_source (ref) VALUES (?)"
                      + " ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                  Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, ref);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              return keys.getInt(1);
            }
          }
        });
  }

  /** The id of a source account, if it was ever registered. */
  public Optional<Integer> findSourceRef(String ref) throws SQLException {
    return Sql.queryOne(
        dataSource, "SELECT id FROM restore_source WHERE ref = ?", rs -> rs.getInt(1), ref);
  }

  /** Which of {@code oldIds} are already restored in the id space, and as what. */
  public Map<Integer, Integer> mapped(IdSpace space, Collection<Integer> oldIds)
      throws SQLException {
    Map<Integer, Integer> mapped = new HashMap<>();
    if (oldIds.isEmpty()) {
      return mapped;
    }
    List<Integer> ids = new ArrayList<>(oldIds);
    Sql.withConnection(
        dataSource,
        c -> {
          for (int from = 0; from < ids.size(); from += Sql.MAX_IN_LIST) {
            List<Integer> chunk = ids.subList(from, Math.min(ids.size(), from + Sql.MAX_IN_LIST));
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT old_id, new_id FROM restore_id_map WHERE target_key = ?"
                        + " AND source_id = ? AND old_id IN ("
                        + Sql.placeholders(chunk.size())
                        + ")")) {
              ps.setInt(1, space.targetKey());
              ps.setInt(2, space.sourceRef());
              for (int i = 0; i < chunk.size(); i++) {
                ps.setInt(i + 3, chunk.get(i));
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  mapped.put(rs.getInt(1), rs.getInt(2));
                }
              }
            }
          }
          return null;
        });
    return mapped;
  }

  /**
   * Every source id restored in the id space, ascending: read in pages, so a mailbox of millions
   * costs its ids (4 bytes each) and never a result set of them at once.
   */
  public int[] restoredIds(IdSpace space) throws SQLException {
    return Sql.withConnection(
        dataSource,
        c -> {
          int[] ids = new int[1024];
          int count = 0;
          int after = Integer.MIN_VALUE;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT old_id FROM restore_id_map WHERE target_key = ? AND source_id = ?"
                      + " AND old_id > ? ORDER BY old_id LIMIT "
                      + ID_PAGE)) {
            int page;
            do {
              ps.setInt(1, space.targetKey());
              ps.setInt(2, space.sourceRef());
              ps.setInt(3, after);
              page = 0;
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  if (count == ids.length) {
                    ids = Arrays.copyOf(ids, count * 2);
                  }
                  after = rs.getInt(1);
                  ids[count++] = after;
                  page++;
                }
              }
            } while (page == ID_PAGE);
          }
          return Arrays.copyOf(ids, count);
        });
  }

  private static final int ID_PAGE = 50_000;

  /** Forgets every mapping into a mailbox that was emptied (the replace policy). */
  public void forget(int targetKey) throws SQLException {
    int deleted;
    do {
      deleted =
          Sql.update(
              dataSource,
              "DELETE FROM restore_id_map WHERE target_key = ? LIMIT " + DELETE_CHUNK,
              targetKey);
    } while (deleted == DELETE_CHUNK);
  }

  private static final int DELETE_CHUNK = 10_000;

  /** The number of source ids restored into a mailbox. */
  public long count(int targetKey) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT COUNT(*) FROM restore_id_map WHERE target_key = ?",
            rs -> rs.getLong(1),
            targetKey)
        .orElse(0L);
  }

  static void insert(Connection c, IdSpace space, List<Mapping> mappings) throws SQLException {
    if (mappings.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO restore_id_map (target_key, source_id, old_id, new_id)"
                + " VALUES (?, ?, ?, ?)")) {
      for (Mapping m : mappings) {
        ps.setInt(1, space.targetKey());
        ps.setInt(2, space.sourceRef());
        ps.setInt(3, m.oldId());
        ps.setInt(4, m.newId());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** A source item id and the id it was restored as. */
  public record Mapping(int oldId, int newId) {}
}
