-- A send's recipients are fixed in batches (issue 39, docs/decisions/0064-send-prepares-in-batches.md):
-- it is `preparing` from its start until the last batch is fixed, then `queued` as before. Each
-- batch is its own short transaction that inserts the recipients of the next subscriber ids and
-- moves `prepared_through` past them, so a crash between batches resumes at the cursor, with no
-- recipient twice and none missing. `prepare_upto` is the highest subscriber id when the send
-- started: who subscribes later is not added (as before); `prepared` counts the rows fixed so far,
-- what the dashboard shows while `total` is not fixed yet.
ALTER TABLE newsletter_sends DROP CONSTRAINT newsletter_sends_status_check;
ALTER TABLE newsletter_sends ADD CONSTRAINT newsletter_sends_status_check
  CHECK (status IN ('scheduled', 'waiting', 'preparing', 'queued', 'sending', 'sent', 'failed', 'paused', 'cancelled'));
ALTER TABLE newsletter_sends
  ADD COLUMN prepared_through integer NOT NULL DEFAULT 0,
  ADD COLUMN prepare_upto integer NOT NULL DEFAULT 0,
  ADD COLUMN prepared integer NOT NULL DEFAULT 0 CHECK (prepared >= 0);
-- What the timers scan each tick: the sends still preparing.
CREATE INDEX newsletter_sends_preparing_idx ON newsletter_sends (id) WHERE status = 'preparing';
