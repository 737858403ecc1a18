-- The outbox: every transactional email (confirmation, welcome, download, a newsletter's test send),
-- written in the same transaction as the change that causes it and delivered by a worker, which
-- claims rows under a lease and marks them sent only after the SMTP server accepted them
-- (docs/decisions/0023-transactional-outbox.md). The message is rendered at delivery from what
-- the row names, so an answer never renders or waits for mail.
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test')),
  -- Whose message it is: erasing the person deletes it. NULL for a test send (nobody's).
  subscriber_id integer REFERENCES subscribers (id) ON DELETE CASCADE,
  to_address text NOT NULL,
  -- What the message is rendered from: the consent record a confirmation link names, the resource of
  -- a download email, the post of a test send.
  consent_id integer REFERENCES subscriber_consents (id) ON DELETE CASCADE,
  download_id integer REFERENCES downloads (id) ON DELETE SET NULL,
  post_id integer REFERENCES posts (id) ON DELETE CASCADE,
  -- Fixed at enqueue, opaque (random), the same for every hand-over: a receiver drops a duplicate.
  message_id text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- A claimed row is its worker's until then; a transient failure sets it to the retry time.
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
-- What workers scan: the pending rows, oldest first.
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE status = 'pending';
-- The download email's limit (one per address and resource per 10 minutes), and an erase's cascade.
CREATE INDEX outbox_subscriber_idx ON outbox (subscriber_id, download_id, created_at);
