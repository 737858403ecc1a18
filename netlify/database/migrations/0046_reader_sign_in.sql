-- Readers sign in by an email link or a 6-digit code (issue 44 point 1, decision 0073).

-- The name a reader shows (on comments, later). Plain text, set on /account.
ALTER TABLE subscribers
  ADD COLUMN display_name text CHECK (display_name IS NULL OR char_length(display_name) BETWEEN 1 AND 50),
  -- At most one sign-in email per address a minute (as confirmation_sent_at does for confirmations).
  ADD COLUMN sign_in_sent_at timestamptz;

-- One sign-in email's link and code. The link's token and the code are made from `nonce` with the
-- server's secret (signer purpose `reader-sign-in`) when the email is rendered; only their hashes
-- are kept. `message_id` ties the row to its outbox message. Using either spends both (`used_at`).
CREATE TABLE reader_sign_ins (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  message_id text NOT NULL UNIQUE,
  nonce text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  failed_codes integer NOT NULL DEFAULT 0
);
CREATE INDEX reader_sign_ins_subscriber_idx ON reader_sign_ins (subscriber_id, created_at DESC);

-- A signed-in reader's browser: only the hash of the cookie's token is kept.
CREATE TABLE reader_sessions (
  token_hash text PRIMARY KEY,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX reader_sessions_subscriber_idx ON reader_sessions (subscriber_id);
CREATE INDEX reader_sessions_expires_idx ON reader_sessions (expires_at);

-- 'digest' (0044) and 'sequence-test' (0050) are other issues' kinds, listed so this order-independent list drops none.
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence', 'webhook-disabled', 'digest', 'sequence-test', 'reader-sign-in'));
ALTER TABLE subscriber_emails DROP CONSTRAINT subscriber_emails_kind_check;
ALTER TABLE subscriber_emails ADD CONSTRAINT subscriber_emails_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter', 'sequence', 'digest', 'reader-sign-in'));
