-- Signed outgoing webhooks (issue 46 points 2-6, docs/decisions/0068-outgoing-webhooks.md): the
-- owner's endpoints, each event recorded once in the transaction of the action that caused it, one
-- delivery row per subscribed endpoint (a kind of the delivery engine: leased, retried, settled
-- once), and every attempt kept for the delivery log.
CREATE TABLE webhook_endpoints (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- The event types it receives (`subscriber.created`, …).
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- `whsec_…`: the signing secret; after a rotation the previous one still signs until
  -- `previous_secret_until` (24 hours). Never in a backup (src/core/backups/backup-tables.ts).
  secret text NOT NULL,
  previous_secret text,
  previous_secret_until timestamptz,
  -- Since when every attempt failed (NULL while the last one succeeded): 3 days of it switch the endpoint off.
  failing_since timestamptz,
  disabled_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- One row per event: its id (`msg_…`) is the `webhook-id` every delivery of it carries, whatever the retries.
CREATE TABLE webhook_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  type text NOT NULL,
  -- The whole JSON body sent: `{ type, timestamp, data }`, fixed at the action.
  payload text NOT NULL,
  -- Whose event it is: erasing the person deletes it and its deliveries.
  subscriber_id integer REFERENCES subscribers (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id bigint NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id);

-- Every hand-over, for the delivery log: the status (NULL: no answer), the time taken, the answer's first 2 KB.
CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  response_body text NOT NULL DEFAULT '',
  error text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);

-- The owner's email when an endpoint failing for 3 days is switched off.
ALTER TABLE outbox ADD COLUMN webhook_endpoint_id integer REFERENCES webhook_endpoints (id) ON DELETE CASCADE;
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence', 'webhook-disabled'));
