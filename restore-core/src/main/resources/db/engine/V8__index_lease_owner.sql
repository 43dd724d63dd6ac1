-- The heartbeat renews an instance's leases by owner. Without an index that UPDATE scanned every
-- account and, in REPEATABLE READ, locked each row it scanned: one instance paused in the middle of
-- a cluster's commit (its account's row locked) held up every other instance's heartbeat until it
-- went on, and their leases ran out under them (decision 0049).
CREATE INDEX IF NOT EXISTS i_account_lease_owner ON restore_account (lease_owner);
