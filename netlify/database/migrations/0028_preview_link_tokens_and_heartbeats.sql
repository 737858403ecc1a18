-- Issue 40 point 2 (docs/decisions/0049-restores-clean-what-they-write.md): a preview link signs a
-- random value of its own, not its row id, so a restore that brings other rows under the same ids
-- can't make an old shared address open another draft. Links made before get a value of their own
-- too, which ends their old addresses (they live hours; the dashboard shows the new ones).
ALTER TABLE preview_links ADD COLUMN token text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');

-- Issue 40 point 7 (docs/decisions/0050-runs-stamp-a-heartbeat.md): imports, backups and restores stamp a
-- heartbeat while they run; one silent for 5 minutes (its process killed, its function cut off) is
-- marked failed as interrupted by the next job's start or the backup check, and its upload deleted.
ALTER TABLE import_runs ADD COLUMN heartbeat_at timestamptz;
ALTER TABLE backup_runs ADD COLUMN heartbeat_at timestamptz;
