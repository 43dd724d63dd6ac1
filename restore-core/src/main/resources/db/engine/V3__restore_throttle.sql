-- The pace of an operation (items and bytes per second), set at its start and changeable while it
-- runs: each instance running it reads it again every few seconds. No row: as fast as it can.
CREATE TABLE IF NOT EXISTS restore_throttle (
  operation_id          CHAR(36) CHARACTER SET ascii NOT NULL PRIMARY KEY,
  max_items_per_second  DOUBLE NULL,
  max_bytes_per_second  DOUBLE NULL,
  updated_at            TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
