-- Bounces and complaints (issue 28, docs/decisions/0030-bounces-and-complaints.md). A subscriber an
-- address bounced for (hard, or three soft bounces in a row within 30 days) is `bounced`; one who
-- marked a message as spam is `complained`. Neither receives anything until they sign up again
-- through the double opt-in. Why, and when, is kept beside the status for the dashboard.
ALTER TABLE subscribers DROP CONSTRAINT subscribers_status_check;
ALTER TABLE subscribers ADD CONSTRAINT subscribers_status_check
  CHECK (status IN ('pending', 'active', 'unsubscribed', 'bounced', 'complained'));
ALTER TABLE subscribers
  ADD COLUMN suppressed_reason text,
  ADD COLUMN suppressed_at timestamptz;

-- A send stops itself (`paused`, with `paused_reason`) when its complaints or hard bounces pass the
-- owner's thresholds; the owner resumes it (after which it does not stop itself again) or cancels it.
ALTER TABLE newsletter_sends DROP CONSTRAINT newsletter_sends_status_check;
ALTER TABLE newsletter_sends ADD CONSTRAINT newsletter_sends_status_check
  CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'paused', 'cancelled'));
ALTER TABLE newsletter_sends ADD COLUMN auto_pause_off boolean NOT NULL DEFAULT false;

-- What came back about a message: from a provider's signed webhook, or an SMTP refusal at send time
-- (`smtp`). (provider, event_id) is the provider's own id for the event: a delivery repeated counts
-- once. The event belongs to the subscriber (erasing them removes it) and to the send it is about.
CREATE TABLE email_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider text NOT NULL CHECK (provider IN ('postmark', 'resend', 'mailgun', 'sendgrid', 'ses', 'smtp')),
  event_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('hard_bounce', 'soft_bounce', 'complaint', 'delivered')),
  subscriber_id integer REFERENCES subscribers (id) ON DELETE CASCADE,
  send_id integer REFERENCES newsletter_sends (id) ON DELETE SET NULL,
  -- The message it is about (Message-ID, or the provider's id when no Message-ID came back).
  message_ref text,
  reason text,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  UNIQUE (provider, event_id)
);
CREATE INDEX email_events_subscriber_idx ON email_events (subscriber_id, occurred_at);
CREATE INDEX email_events_send_idx ON email_events (send_id, type);
CREATE INDEX email_events_recent_idx ON email_events (occurred_at, type);
-- No index on newsletter_recipients.message_id: an event finds its subscriber by address first,
-- then the row by (subscriber_id, message_id) through newsletter_recipients_subscriber_idx, and the
-- send's hot path (marking rows sent) keeps one index fewer to write.
