-- A subscriber is pending until they confirm by email, active while they receive the newsletter,
-- unsubscribed once they leave; erasing deletes the row and, by cascade, everything held about them.
ALTER TABLE subscribers
  ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'unsubscribed')),
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN unsubscribed_at timestamptz,
  -- When the last confirmation email went out: at most one per address per 10 minutes.
  ADD COLUMN confirmation_sent_at timestamptz;
UPDATE subscribers SET status = CASE WHEN is_active THEN 'active' ELSE 'unsubscribed' END,
  confirmed_at = CASE WHEN is_active THEN subscribed_at END;
ALTER TABLE subscribers DROP COLUMN is_active;
CREATE INDEX subscribers_status_idx ON subscribers (status);

-- Consent: each time someone asked to be subscribed — where, the words they were shown, when they
-- asked and when they confirmed. No IP address is kept (see docs/decisions).
CREATE TABLE subscriber_consents (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('newsletter', 'download', 'import')),
  wording text NOT NULL,
  asked_at timestamptz NOT NULL,
  confirmed_at timestamptz
);
CREATE INDEX subscriber_consents_subscriber_idx ON subscriber_consents (subscriber_id);

-- Every email sent to a subscriber: what a personal export shows and an erase removes.
CREATE TABLE subscriber_emails (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter')),
  subject text NOT NULL,
  message_id text NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX subscriber_emails_subscriber_idx ON subscriber_emails (subscriber_id);
