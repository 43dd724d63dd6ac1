package org.mailrestore.restore.bookkeeping;

import java.sql.SQLException;
import javax.sql.DataSource;
import org.mailrestore.restore.Pace;
import org.mailrestore.sql.Sql;

/** The pace each operation is held to ({@code restore_throttle}). */
public final class ThrottleStore {

  private final DataSource dataSource;

  public ThrottleStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Sets (or, with {@link Pace#UNLIMITED}, lifts) the operation's pace. */
  public void set(String operationId, Pace pace) throws SQLException {
    Sql.update(
        dataSource,
        "INSERT INTO restore_throttle (operation_id, max_items_per_second, max_bytes_per_second)"
            + " VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE"
            + " max_items_per_second = VALUES(max_items_per_second),"
            + " max_bytes_per_second = VALUES(max_bytes_per_second),"
            + " updated_at = CURRENT_TIMESTAMP(3)",
        operationId,
        pace.itemsPerSecond(),
        pace.bytesPerSecond());
  }

  /** The operation's pace; unlimited when none was set. */
  public Pace get(String operationId) throws SQLException {
    return Sql.queryOne(
            dataSource,
            "SELECT max_items_per_second, max_bytes_per_second FROM restore_throttle"
                + " WHERE operation_id = ?",
            rs -> {
              double items = rs.getDouble(1);
              Double i = rs.wasNull() ? null : items;
              double bytes = rs.getDouble(2);
              Double b = rs.wasNull() ? null : bytes;
              return new Pace(i, b);
            },
            operationId)
        .orElse(Pace.UNLIMITED);
  }
}
