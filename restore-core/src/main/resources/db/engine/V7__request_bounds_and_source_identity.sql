-- What the API accepts, the database holds (issue 41): the largest valid request is several
-- megabytes of JSON (MEDIUMTEXT: 16 MiB), and the source's description holds a location of up to
-- 4,095 characters with its kind and profile (TEXT).
-- source_identity: what the source was when the operation first ran (MailSource#identity); a run
-- that finds another source in its place does not mix the two.
ALTER TABLE restore_operation
  MODIFY request MEDIUMTEXT NOT NULL,
  MODIFY source TEXT NOT NULL,
  ADD COLUMN source_identity VARCHAR(512) NULL;
