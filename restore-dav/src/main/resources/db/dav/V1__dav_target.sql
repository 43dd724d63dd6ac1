-- The DAV target's own records in the bookkeeping's database (docs/dav-target.md): which home each
-- account is, which collection each restored folder became, the tags it named, and where each
-- restored contact, appointment or task is. The engine's id map points at these ids.

-- Keys start far above the mailstore's mailbox ids and the IMAP target's account keys: the
-- engine's id map is keyed by them, and one bookkeeping database may serve several targets.
CREATE TABLE IF NOT EXISTS dav_account (
  id        INT          NOT NULL AUTO_INCREMENT,
  server    VARCHAR(255) NOT NULL,
  login     VARCHAR(320) NOT NULL,
  next_id   INT          NOT NULL DEFAULT 256,
  PRIMARY KEY (id),
  UNIQUE KEY uq_dav_account (server, login)
) ENGINE=InnoDB AUTO_INCREMENT=2000000001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- kind: addressbook, calendar (events), tasks (to-dos), or none (a folder of another view,
-- recorded so its children have a parent, with nothing on the server).
CREATE TABLE IF NOT EXISTS dav_collection (
  account_id  INT           NOT NULL,
  id          INT           NOT NULL,
  href        VARCHAR(1000) NOT NULL,
  name        VARCHAR(255)  NOT NULL,
  parent_id   INT           NOT NULL,
  kind        VARCHAR(12)   NOT NULL,
  view        VARCHAR(32)   NULL,
  color       INT           NOT NULL,
  PRIMARY KEY (account_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS dav_tag (
  account_id  INT          NOT NULL,
  id          INT          NOT NULL,
  name        VARCHAR(255) NOT NULL,
  PRIMARY KEY (account_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- source_id: the item's id in the source, which tells a resource an earlier attempt of the same
-- cluster recorded (a composition commits the target's records before the engine's journal) from
-- another item's of the same UID.
-- source_digest, source_size: the content the resource was made from (an appointment's MIME
-- message); written_sha256: the hash of the resource as written, in its canonical form, so that
-- verify can tell the server holds what was made from that content.
CREATE TABLE IF NOT EXISTS dav_resource (
  account_id     INT           NOT NULL,
  id             INT           NOT NULL,
  source_id      INT           NOT NULL,
  collection_id  INT           NOT NULL,
  type           TINYINT       NOT NULL,
  href           VARCHAR(1000) NOT NULL,
  uid            VARCHAR(1000) NOT NULL,
  source_digest  BINARY(32)    NULL,
  source_size    BIGINT        NOT NULL,
  written_sha256 BINARY(32)    NOT NULL,
  PRIMARY KEY (account_id, id),
  KEY ix_dav_resource_collection (account_id, collection_id),
  KEY ix_dav_resource_href (account_id, href(700))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
