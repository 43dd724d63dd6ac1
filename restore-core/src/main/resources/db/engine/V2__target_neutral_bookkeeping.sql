-- The bookkeeping names the target's account by a key the target chooses (the mailstore's mailbox
-- id, an IMAP target's own number), not by mailstore columns; the mailstore's account row id is no
-- longer kept here.
ALTER TABLE restore_account
  RENAME COLUMN mailbox_id TO target_key,
  RENAME COLUMN account_uuid TO target_id,
  DROP COLUMN account_id;
ALTER TABLE restore_id_map RENAME COLUMN mailbox_id TO target_key;
ALTER TABLE restore_mount RENAME COLUMN mailbox_id TO target_key;

-- Clusters whose writes started, for targets whose writes do not commit with the bookkeeping (an
-- IMAP server): one started but never committed was in flight at a crash, and is written again
-- looking for what it wrote before.
CREATE TABLE restore_cluster_intent (
  operation_id      CHAR(36) CHARACTER SET ascii NOT NULL,
  source_account_id VARCHAR(255) CHARACTER SET ascii NOT NULL,
  seq               INT UNSIGNED NOT NULL,
  started_at        TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (operation_id, source_account_id, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A request's source has one shape everywhere now: {kind, location, profile, options}.
UPDATE restore_operation
   SET request = JSON_SET(request, '$.source', JSON_OBJECT(
         'kind', 'backup',
         'location', JSON_VALUE(request, '$.source.path'),
         'options', JSON_OBJECT()))
 WHERE JSON_VALUE(request, '$.source.kind') = 'local';
UPDATE restore_operation
   SET request = JSON_SET(request, '$.source', JSON_OBJECT(
         'kind', 'backup',
         'location', CONCAT('s3://', JSON_VALUE(request, '$.source.bucket'), '/',
                            COALESCE(JSON_VALUE(request, '$.source.prefix'), '')),
         'profile', COALESCE(JSON_VALUE(request, '$.source.profile'), 'default'),
         'options', JSON_OBJECT()))
 WHERE JSON_VALUE(request, '$.source.kind') = 's3';
UPDATE restore_operation
   SET request = JSON_SET(request, '$.source', JSON_OBJECT(
         'kind', 'maildir',
         'location', JSON_VALUE(request, '$.source.path'),
         'options', JSON_OBJECT(
           'domain', JSON_VALUE(request, '$.source.domain'),
           'layout', COALESCE(JSON_VALUE(request, '$.source.layout'), 'auto'))))
 WHERE JSON_VALUE(request, '$.source.kind') = 'maildir';
