-- Workers claim the next account by name with FOR UPDATE SKIP LOCKED. Without an index in that
-- order the claim read and locked every unfinished account of the operation before sorting, so a
-- worker claiming at the same moment skipped them all, found nothing and stopped: a restore of many
-- accounts ran one account at a time. In name order the claim locks only what it passes.
CREATE INDEX IF NOT EXISTS i_account_claim_order ON restore_account (operation_id, account_name);
