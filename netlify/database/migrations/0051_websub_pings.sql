-- WebSub (issue 43 point 2): after a post is published, updated, goes live on its schedule or is
-- unpublished, the hub named by the `websub_hub` setting is told which feeds changed — once the
-- change is live. One row per change: `waiting` until the post's page shows it (answers 200 with
-- the change's modified time, or no longer answers 200 for an unpublish), then `pending` for the
-- delivery engine (src/core/mail/delivery-engine.ts), which POSTs the ping and retries a hub that
-- is down. Paths, not URLs: the site's address is read when the ping goes (docs/decisions/0077-websub.md).
CREATE TABLE websub_pings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id integer,
  -- The post's page, and what it must show for the change to be live.
  page_path text NOT NULL,
  expect text NOT NULL CHECK (expect IN ('live', 'gone')),
  modified_at timestamptz,
  -- The feeds the change is in (the site's, its category's and its tags'), as paths.
  feed_paths text[] NOT NULL,
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'pending', 'sent', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  live_at timestamptz,
  sent_at timestamptz
);
CREATE INDEX websub_pings_waiting_idx ON websub_pings (id) WHERE status = 'waiting';
CREATE INDEX websub_pings_pending_idx ON websub_pings (id) WHERE status = 'pending';
CREATE INDEX websub_pings_post_idx ON websub_pings (post_id) WHERE status = 'waiting';
