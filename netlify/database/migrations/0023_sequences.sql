-- Sequences (issue 31, docs/decisions/0039-sequences.md): a welcome sequence for new confirmed
-- subscribers and one per resource for people who requested it and confirmed. Each is a list of
-- steps (subject, HTML from the post editor, a delay after the previous step). A person's place in
-- a sequence is an enrollment; each step they are sent is a delivery, written in the transaction
-- that queues its email in the outbox (one per person and step: the unique key), so a step goes
-- out once through crashes and replays.
CREATE TABLE sequences (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- NULL: the welcome sequence (there is one); otherwise the resource whose requesters it follows.
  download_id integer UNIQUE REFERENCES downloads (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  -- The welcome sequence gets its first step (the built-in welcome email) once, when first read.
  seeded boolean NOT NULL DEFAULT true
);
CREATE UNIQUE INDEX sequences_one_welcome_idx ON sequences ((download_id IS NULL)) WHERE download_id IS NULL;
INSERT INTO sequences (download_id, enabled, seeded) VALUES (NULL, true, false);

CREATE TABLE sequence_steps (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sequence_id integer NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
  position integer NOT NULL,
  delay_minutes integer NOT NULL CHECK (delay_minutes >= 0),
  subject text NOT NULL,
  html text NOT NULL,
  -- A removed step is kept (its deliveries and figures name it) but sent to nobody from then on.
  deleted_at timestamptz
);
CREATE INDEX sequence_steps_sequence_idx ON sequence_steps (sequence_id, position) WHERE deleted_at IS NULL;

CREATE TABLE sequence_enrollments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sequence_id integer NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  -- NULL while the person who requested a resource has not confirmed yet; the first step's delay counts from it.
  enrolled_at timestamptz,
  -- Every step sent, or the person left (unsubscribed, bounced, complained): nothing more goes out.
  finished_at timestamptz,
  -- The earliest the next step can be due (its delay counts from the previous step's sending, which
  -- is later): a run looks only at enrollments whose time has come, not at every open one.
  next_at timestamptz,
  UNIQUE (sequence_id, subscriber_id)
);
-- What each run scans: the open enrollments whose next step may be due.
CREATE INDEX sequence_enrollments_due_idx ON sequence_enrollments (next_at) WHERE finished_at IS NULL AND enrolled_at IS NOT NULL;
CREATE INDEX sequence_enrollments_subscriber_idx ON sequence_enrollments (subscriber_id);

CREATE TABLE sequence_deliveries (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  enrollment_id integer NOT NULL REFERENCES sequence_enrollments (id) ON DELETE CASCADE,
  step_id integer NOT NULL REFERENCES sequence_steps (id) ON DELETE CASCADE,
  -- The step as it was when queued: an edit afterwards changes only what has not been sent.
  subject text NOT NULL,
  html text NOT NULL,
  -- The outbox row's Message-ID (its status says whether it was sent).
  message_id text UNIQUE,
  created_at timestamptz NOT NULL,
  UNIQUE (enrollment_id, step_id)
);
CREATE INDEX sequence_deliveries_step_idx ON sequence_deliveries (step_id);

ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence'));
ALTER TABLE subscriber_emails DROP CONSTRAINT subscriber_emails_kind_check;
ALTER TABLE subscriber_emails ADD CONSTRAINT subscriber_emails_kind_check CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter', 'sequence'));
