-- A failure of the whole mail provider (connection, greeting, login, MAIL FROM, or the same refusal
-- for recipient after recipient) pauses delivery instead of failing the messages
-- (docs/decisions/0027-provider-outages-pause.md). A paused newsletter send keeps every recipient
-- pending; `paused_reason` is what the dashboard shows ("Paused: …") until a message goes through.
ALTER TABLE newsletter_sends
  ADD COLUMN paused_reason text,
  -- No worker takes the send up before then; the next try after it clears the pause on a success.
  ADD COLUMN paused_until timestamptz,
  -- Pauses in a row since the last message accepted: the wait doubles with each (1 … 30 minutes).
  ADD COLUMN pauses integer NOT NULL DEFAULT 0 CHECK (pauses >= 0);

-- The outbox's pause: one row at most (the key can only be true), present while paused.
CREATE TABLE outbox_pause (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  reason text NOT NULL,
  paused_until timestamptz NOT NULL,
  pauses integer NOT NULL DEFAULT 1 CHECK (pauses >= 0),
  paused_at timestamptz NOT NULL
);
