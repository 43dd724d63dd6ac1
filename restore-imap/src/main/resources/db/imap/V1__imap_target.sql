-- The IMAP target's own records in the bookkeeping's database (docs/imap-target.md): which server
-- login each account is, which server folder each restored folder became, which keyword each
-- tag became, and where each restored message is (UIDVALIDITY + UID). The engine's id map points
-- at these ids.

-- Keys start far above the mailstore's mailbox ids: the engine's id map is keyed by them, and
-- one bookkeeping database may serve both targets.
CREATE TABLE IF NOT EXISTS imap_account (
  id        INT          NOT NULL AUTO_INCREMENT,
  server    VARCHAR(255) NOT NULL,
  login     VARCHAR(320) NOT NULL,
  next_id   INT          NOT NULL DEFAULT 256,
  PRIMARY KEY (id),
  UNIQUE KEY uq_imap_account (server, login)
) ENGINE=InnoDB AUTO_INCREMENT=1000000001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS imap_folder (
  account_id  INT           NOT NULL,
  id          INT           NOT NULL,
  path        VARCHAR(1000) NOT NULL,
  name        VARCHAR(255)  NOT NULL,
  parent_id   INT           NOT NULL,
  PRIMARY KEY (account_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS imap_tag (
  account_id  INT          NOT NULL,
  id          INT          NOT NULL,
  name        VARCHAR(255) NOT NULL,
  keyword     VARCHAR(255) NOT NULL,
  PRIMARY KEY (account_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- line_endings: how the message's lines ended in the source (CRLF, LF or MIXED); IMAP carries
-- CRLF, so an LF message is read back as LF again. bare_lines: for MIXED, a bit per line ending,
-- set where the source had a bare LF.
CREATE TABLE IF NOT EXISTS imap_message (
  account_id   INT         NOT NULL,
  id           INT         NOT NULL,
  folder_id    INT         NOT NULL,
  uidvalidity  BIGINT      NOT NULL,
  uid          BIGINT      NOT NULL,
  line_endings VARCHAR(5)  NOT NULL,
  bare_lines   MEDIUMBLOB  NULL,
  PRIMARY KEY (account_id, id),
  KEY ix_imap_message_uid (account_id, folder_id, uidvalidity, uid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
