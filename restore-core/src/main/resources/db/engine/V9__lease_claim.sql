-- Which claim of its holder holds an account (decision 0053): an instance that claims an account
-- again (its earlier claim lapsed) must not have the earlier claim's release or late commit taken
-- for the new one's.
ALTER TABLE restore_account ADD COLUMN IF NOT EXISTS lease_claim BIGINT NULL;
