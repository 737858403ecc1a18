-- The weekly digest (issue 42 point 2): one email a week to each reader on the `weekly` frequency,
-- with the week's posts in their topics, queued through the outbox (decision 0026) and rendered at
-- delivery. One row per reader and week, written in the transaction that queues the email: a job
-- run that crashes, is replayed or overlaps another queues nothing twice.
CREATE TABLE weekly_digests (
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  -- The scheduled moment (the owner's day and hour) that closes the week: its posts are those
  -- published in the 7 days before it.
  week_ends timestamptz NOT NULL,
  -- The outbox message that carries it (its renderer finds the week by it).
  message_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscriber_id, week_ends)
);
CREATE UNIQUE INDEX weekly_digests_message_idx ON weekly_digests (message_id);

ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence', 'webhook-disabled', 'digest'));
ALTER TABLE subscriber_emails DROP CONSTRAINT subscriber_emails_kind_check;
ALTER TABLE subscriber_emails ADD CONSTRAINT subscriber_emails_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter', 'sequence', 'digest'));
