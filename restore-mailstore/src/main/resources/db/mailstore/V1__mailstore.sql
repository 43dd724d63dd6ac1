-- The mailstore: a Zimbra-style store, simplified where Zimbra keeps history.
-- Type numbers, system folder ids (1-20, user items from 256) and flag bits follow Zimbra.
-- Names compare exactly (utf8mb4_bin); the restore itself keeps folder names unique per parent
-- case-insensitively, as Zimbra does, so the stricter rule never reaches the database.

CREATE TABLE IF NOT EXISTS volume (
  id                    SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name                  VARCHAR(64)  NOT NULL,
  kind                  VARCHAR(16)  NOT NULL,  -- local | s3 | packed-local | packed-s3
  location              VARCHAR(1024) NOT NULL, -- a directory, or s3://bucket/prefix
  compression           VARCHAR(8)   NOT NULL DEFAULT 'none',
  compression_threshold INT UNSIGNED NOT NULL DEFAULT 0,
  pack_threshold        INT UNSIGNED NOT NULL DEFAULT 0,  -- packed kinds: largest blob packed
  s3_profile            VARCHAR(64)  NULL,                -- s3 kinds: the configured profile
  created_at            TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_volume_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Provisioning -------------------------------------------------------------------------------

CREATE TABLE IF NOT EXISTS domain (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name       VARCHAR(255) NOT NULL,
  status     VARCHAR(32)  NOT NULL,
  attributes TEXT NULL,                           -- JSON object of strings
  created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_domain_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS cos (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name       VARCHAR(255) NOT NULL,
  attributes TEXT NULL,
  created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_cos_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS account (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  uuid       VARCHAR(64)  CHARACTER SET ascii NOT NULL, -- the account's id on this server
  name       VARCHAR(255) NOT NULL,                     -- its address
  domain_id  INT UNSIGNED NOT NULL,
  cos_id     INT UNSIGNED NULL,
  status     VARCHAR(32)  NOT NULL,
  is_system  BOOLEAN      NOT NULL DEFAULT FALSE,
  attributes TEXT NULL,
  created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_account_uuid (uuid),
  UNIQUE KEY uk_account_name (name),
  CONSTRAINT fk_account_domain FOREIGN KEY (domain_id) REFERENCES domain (id),
  CONSTRAINT fk_account_cos FOREIGN KEY (cos_id) REFERENCES cos (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS account_alias (
  alias      VARCHAR(255) NOT NULL PRIMARY KEY,
  account_id INT UNSIGNED NOT NULL,
  KEY i_alias_account (account_id),
  CONSTRAINT fk_alias_account FOREIGN KEY (account_id) REFERENCES account (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS distribution_list (
  id           INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  address      VARCHAR(255) NOT NULL,
  domain_id    INT UNSIGNED NOT NULL,
  display_name VARCHAR(255) NULL,
  attributes   TEXT NULL,
  created_at   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_list_address (address),
  CONSTRAINT fk_list_domain FOREIGN KEY (domain_id) REFERENCES domain (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS list_member (
  list_id INT UNSIGNED NOT NULL,
  member  VARCHAR(255) NOT NULL,
  PRIMARY KEY (list_id, member),
  CONSTRAINT fk_member_list FOREIGN KEY (list_id) REFERENCES distribution_list (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Mailboxes ----------------------------------------------------------------------------------

CREATE TABLE IF NOT EXISTS mailbox (
  id                 INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_id         INT UNSIGNED NOT NULL,
  item_id_checkpoint INT UNSIGNED NOT NULL DEFAULT 255, -- the highest item id handed out
  created_at         TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_mailbox_account (account_id),
  CONSTRAINT fk_mailbox_account FOREIGN KEY (account_id) REFERENCES account (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Folders, search folders, mountpoints, messages, contacts, appointments, tasks, documents.
-- No foreign keys here: rows arrive in batches of thousands and the restore checks references.
CREATE TABLE IF NOT EXISTS mail_item (
  mailbox_id  INT UNSIGNED      NOT NULL,
  id          INT UNSIGNED      NOT NULL,
  type        TINYINT UNSIGNED  NOT NULL,  -- Zimbra MailItem.Type: 1 folder, 2 search, 5 message...
  folder_id   INT UNSIGNED      NOT NULL,  -- the containing folder (for folders: the parent)
  uuid        VARCHAR(64) CHARACTER SET ascii NULL,
  date        BIGINT            NOT NULL,  -- epoch milliseconds
  size        BIGINT UNSIGNED   NOT NULL DEFAULT 0,
  flags       INT UNSIGNED      NOT NULL DEFAULT 0, -- Zimbra flag bits
  name        VARCHAR(255)      NULL,      -- folders, mountpoints, documents
  sender      VARCHAR(255)      NULL,
  subject     TEXT              NULL,
  color       SMALLINT          NULL,
  view        VARCHAR(16)       NULL,
  blob_digest BINARY(32)        NULL,      -- SHA-256 of the raw blob; see volume_blob
  volume_id   SMALLINT UNSIGNED NULL,
  metadata    TEXT              NULL,      -- type-specific fields as a JSON object
  PRIMARY KEY (mailbox_id, id),
  UNIQUE KEY uk_item_name (mailbox_id, folder_id, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS tag (
  mailbox_id INT UNSIGNED NOT NULL,
  id         INT UNSIGNED NOT NULL,
  name       VARCHAR(255) NOT NULL,
  color      SMALLINT     NULL,
  PRIMARY KEY (mailbox_id, id),
  UNIQUE KEY uk_tag_name (mailbox_id, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS tagged_item (
  mailbox_id INT UNSIGNED NOT NULL,
  item_id    INT UNSIGNED NOT NULL,
  tag_id     INT UNSIGNED NOT NULL,
  PRIMARY KEY (mailbox_id, item_id, tag_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Grants on folders. grantee_id: an account uuid (usr), a list address (grp), a domain (dom),
-- or '' (all, pub).
CREATE TABLE IF NOT EXISTS acl (
  mailbox_id   INT UNSIGNED NOT NULL,
  folder_id    INT UNSIGNED NOT NULL,
  grantee_type VARCHAR(8)   NOT NULL,
  grantee_id   VARCHAR(255) NOT NULL,
  grantee_name VARCHAR(255) NULL,
  rights       VARCHAR(32)  NOT NULL,
  PRIMARY KEY (mailbox_id, folder_id, grantee_type, grantee_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Where a mountpoint item points: another account's folder on this server.
CREATE TABLE IF NOT EXISTS mountpoint (
  mailbox_id       INT UNSIGNED NOT NULL,
  item_id          INT UNSIGNED NOT NULL,
  owner_uuid       VARCHAR(64) CHARACTER SET ascii NOT NULL,
  remote_folder_id INT UNSIGNED NOT NULL,
  PRIMARY KEY (mailbox_id, item_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Blobs by volume: each digest is stored once per volume; items point at it by digest.
CREATE TABLE IF NOT EXISTS volume_blob (
  volume_id   SMALLINT UNSIGNED NOT NULL,
  digest      BINARY(32)        NOT NULL,
  locator     VARCHAR(512) CHARACTER SET ascii NOT NULL,
  raw_size    BIGINT UNSIGNED   NOT NULL,
  stored_size BIGINT UNSIGNED   NOT NULL,
  PRIMARY KEY (volume_id, digest)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
