-- A post sent as the newsletter. The email is rendered once, at the start, and kept here: every
-- recipient (and every re-handover of the same message after a crash) gets the same content, even if
-- the post is edited mid-send. `__RECIPIENT_TOKEN__` in it stands for each recipient's unsubscribe token.
CREATE TABLE newsletter_sends (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  subject text NOT NULL,
  html text NOT NULL,
  text text NOT NULL,
  total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX newsletter_sends_post_idx ON newsletter_sends (post_id, created_at DESC);

-- One row per (send, subscriber active at the start): the queue workers claim from.
-- `subscriber_id` becomes NULL when the subscriber is erased (the address must go with them, so it is
-- not copied here); the row stays, so the send's counts still add up, and a worker skips it. A
-- surrogate id is the key because a primary key cannot hold NULL; (send_id, subscriber_id) stays unique.
CREATE TABLE newsletter_recipients (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  send_id integer NOT NULL REFERENCES newsletter_sends (id) ON DELETE CASCADE,
  subscriber_id integer REFERENCES subscribers (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  -- How many times the row was handed to a worker (a crash mid-send counts too).
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- A claimed row belongs to its worker until then; past it, any worker may claim it again.
  lease_until timestamptz,
  message_id text,
  last_error text,
  sent_at timestamptz,
  UNIQUE (send_id, subscriber_id)
);
-- What workers scan: the pending rows of one send, in order.
CREATE INDEX newsletter_recipients_pending_idx ON newsletter_recipients (send_id, id) WHERE status = 'pending';
-- Erasing a subscriber sets their rows' subscriber_id to NULL: without this it scans every row.
CREATE INDEX newsletter_recipients_subscriber_idx ON newsletter_recipients (subscriber_id);
