-- Restore bookkeeping: operations, per-account progress and checkpoints, the map from backup ids
-- to restored ids, and failures. A target in the same database writes them in the same
-- transactions as its rows, so a crash never leaves the two out of step.
-- IF NOT EXISTS: databases from before the engine had its own migration history hold these
-- tables already (created by the mailstore's history); they are taken as they are.

CREATE TABLE IF NOT EXISTS restore_operation (
  id              CHAR(36) CHARACTER SET ascii NOT NULL PRIMARY KEY,
  state           VARCHAR(16)  NOT NULL, -- queued running completed partial failed cancelled
  phase           VARCHAR(16)  NULL,     -- provisioning data shares
  source          VARCHAR(1024) NOT NULL,
  request         TEXT         NOT NULL, -- the request as JSON
  idempotency_key VARCHAR(128) NULL,
  created_at      TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  started_at      TIMESTAMP(3) NULL,
  finished_at     TIMESTAMP(3) NULL,
  updated_at      TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  provisioning_ms BIGINT       NULL,
  data_ms         BIGINT       NULL,
  shares_ms       BIGINT       NULL,
  message         TEXT         NULL,     -- why an operation failed as a whole
  coordinator     VARCHAR(64)  NULL,     -- the instance running its phases (lease below)
  coordinator_until TIMESTAMP(3) NULL,
  cancel_requested BOOLEAN     NOT NULL DEFAULT FALSE,
  UNIQUE KEY uk_operation_idempotency (idempotency_key),
  KEY i_operation_state (state, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS restore_account (
  operation_id      CHAR(36) CHARACTER SET ascii NOT NULL,
  source_account_id VARCHAR(255) CHARACTER SET ascii NOT NULL,
  account_name      VARCHAR(255) NOT NULL,  -- the address restored into
  account_uuid      VARCHAR(64) CHARACTER SET ascii NULL,
  account_id        INT UNSIGNED NULL,
  mailbox_id        INT UNSIGNED NULL,
  source_ref        INT UNSIGNED NULL,      -- restore_source.id of this backup account
  fresh_mailbox     BOOLEAN      NOT NULL DEFAULT FALSE, -- emptied or created by this operation
  state             VARCHAR(16)  NOT NULL,  -- pending provisioned restoring restored partial failed skipped
  items_restored    BIGINT       NOT NULL DEFAULT 0,
  items_skipped     BIGINT       NOT NULL DEFAULT 0,
  items_failed      BIGINT       NOT NULL DEFAULT 0,
  bytes_restored    BIGINT       NOT NULL DEFAULT 0,
  dedup_hits        BIGINT       NOT NULL DEFAULT 0,
  lease_owner       VARCHAR(64)  NULL,
  lease_until       TIMESTAMP(3) NULL,
  started_at        TIMESTAMP(3) NULL,
  finished_at       TIMESTAMP(3) NULL,
  error             TEXT         NULL,
  PRIMARY KEY (operation_id, source_account_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per committed cluster; seq 0 is the account's folders and tags. A resumed account
-- skips the clusters found here.
CREATE TABLE IF NOT EXISTS restore_cluster (
  operation_id      CHAR(36) CHARACTER SET ascii NOT NULL,
  source_account_id VARCHAR(255) CHARACTER SET ascii NOT NULL,
  seq               INT UNSIGNED NOT NULL,
  items             INT UNSIGNED NOT NULL,
  committed_at      TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (operation_id, source_account_id, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The accounts of backups ever restored, by "<backup server id>/<account id>": item ids are
-- unique only within one source account, so the id map is keyed by it.
CREATE TABLE IF NOT EXISTS restore_source (
  id  INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  ref VARCHAR(400) NOT NULL,
  UNIQUE KEY uk_source_ref (ref)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Backup item id -> restored item id, per target mailbox and source account. Its key is what
-- makes re-runs skip; two different source accounts merged into one mailbox never collide.
CREATE TABLE IF NOT EXISTS restore_id_map (
  mailbox_id INT UNSIGNED NOT NULL,
  source_id  INT UNSIGNED NOT NULL,
  old_id     INT UNSIGNED NOT NULL,
  new_id     INT UNSIGNED NOT NULL,
  PRIMARY KEY (mailbox_id, source_id, old_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Mountpoints restored in phase 2 wait here for phase 3, which knows every account's new ids.
CREATE TABLE IF NOT EXISTS restore_mount (
  operation_id     CHAR(36) CHARACTER SET ascii NOT NULL,
  mailbox_id       INT UNSIGNED NOT NULL,
  item_id          INT UNSIGNED NOT NULL,
  source_item_id   INT UNSIGNED NOT NULL,
  source_owner_id  VARCHAR(255) CHARACTER SET ascii NOT NULL,
  source_folder_id INT UNSIGNED NOT NULL,
  PRIMARY KEY (operation_id, mailbox_id, item_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS restore_failure (
  id                BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  operation_id      CHAR(36) CHARACTER SET ascii NOT NULL,
  source_account_id VARCHAR(255) CHARACTER SET ascii NOT NULL DEFAULT '',
  item_id           INT UNSIGNED NOT NULL DEFAULT 0,  -- 0 when the failure is not one item's
  phase             VARCHAR(16)  NOT NULL,
  severity          VARCHAR(8)   NOT NULL,             -- error: not restored; warning: repaired
  reason            VARCHAR(32)  NOT NULL,             -- a stable code, see docs/mailstore.md
  location          VARCHAR(512) NOT NULL DEFAULT '',  -- the backup file (and line)
  detail            TEXT         NOT NULL,
  created_at        TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  detail_hash       BINARY(16) AS (UNHEX(MD5(detail))) PERSISTENT,
  -- A failure reported again by a resumed run is the same failure, recorded once.
  UNIQUE KEY uk_failure (operation_id, source_account_id, item_id, reason, location, detail_hash),
  KEY i_failure_reason (operation_id, reason)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
