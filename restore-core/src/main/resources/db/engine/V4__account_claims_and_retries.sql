-- One writer per account: an operation claims every account it will write (by the address it
-- restores into) for its whole life; another operation touching one of them waits, QUEUED, until
-- the claims are released when the first ends. Claims of ended operations count for nothing.
CREATE TABLE IF NOT EXISTS restore_claim (
  account_name VARCHAR(255) NOT NULL PRIMARY KEY, -- lower case
  operation_id CHAR(36) CHARACTER SET ascii NOT NULL,
  claimed_at   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  KEY i_claim_operation (operation_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Claims are taken all at once under this one row's lock: no two operations check and claim at the
-- same time, and none holds some accounts while waiting for others (no deadlock).
CREATE TABLE IF NOT EXISTS restore_claim_lock (
  id TINYINT UNSIGNED NOT NULL PRIMARY KEY
) ENGINE=InnoDB;
INSERT IGNORE INTO restore_claim_lock (id) VALUES (1);

-- Runs that stopped on a database error are retried with a growing delay, a bounded number of
-- times; then the operation ends FAILED with the last error.
ALTER TABLE restore_operation
  ADD COLUMN IF NOT EXISTS attempts INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS retry_after TIMESTAMP(3) NULL;
