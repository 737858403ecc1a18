-- The blog on the social web (issue 45; docs/fediverse.md; docs/decisions/0087-fediverse-with-fedify.md).

-- The site actor's key pairs, made on first use: RSASSA-PKCS1-v1_5 (draft-cavage HTTP Signatures,
-- which Mastodon requires) and Ed25519 (Object Integrity Proofs, as Fedify recommends). JWK text.
CREATE TABLE fediverse_keys (
  algorithm text PRIMARY KEY CHECK (algorithm IN ('rsa', 'ed25519')),
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

-- Fedify's key-value store (its caches of remote keys and documents, and its inbox idempotence).
CREATE TABLE fediverse_kv (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  expires_at timestamptz
);
CREATE INDEX fediverse_kv_expires_idx ON fediverse_kv (expires_at) WHERE expires_at IS NOT NULL;

-- Who follows the site: one row per remote actor.
CREATE TABLE fediverse_followers (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_id text NOT NULL UNIQUE,
  actor_url text,
  inbox text NOT NULL,
  shared_inbox text,
  -- `user@server`, and the server (host, with its port when it has one).
  handle text NOT NULL,
  server text NOT NULL,
  name text,
  avatar text,
  -- The Follow activity's id, named again in the Accept.
  follow_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX fediverse_followers_server_idx ON fediverse_followers (server);
CREATE INDEX fediverse_followers_created_idx ON fediverse_followers (created_at);

-- Follower counts over time (Stats): one row per follow and per unfollow.
CREATE TABLE fediverse_follower_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_id text NOT NULL,
  change smallint NOT NULL CHECK (change IN (1, -1)),
  at timestamptz NOT NULL
);
CREATE INDEX fediverse_follower_events_at_idx ON fediverse_follower_events (at);

-- Servers the owner blocked: their requests are refused and nothing goes to them.
CREATE TABLE fediverse_blocks (
  domain text PRIMARY KEY,
  created_at timestamptz NOT NULL
);

-- Likes and boosts of a post: one per actor, object and kind, so an Undo finds its row.
CREATE TABLE fediverse_reactions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('like', 'boost')),
  actor_id text NOT NULL,
  activity_id text,
  created_at timestamptz NOT NULL,
  UNIQUE (post_id, kind, actor_id)
);
CREATE INDEX fediverse_reactions_activity_idx ON fediverse_reactions (activity_id);

-- A post's change waiting to show on its page (written in the post's transaction, as websub_pings):
-- once the page shows it, it becomes one delivery per follower inbox.
CREATE TABLE fediverse_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id integer NOT NULL,
  page_path text NOT NULL,
  expect text NOT NULL CHECK (expect IN ('live', 'gone')),
  modified_at timestamptz,
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'done', 'failed', 'skipped')),
  last_error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX fediverse_changes_waiting_idx ON fediverse_changes (id) WHERE status = 'waiting';

-- What the site has sent each post as (Create once, then Update; Delete ends it).
CREATE TABLE fediverse_post_states (
  post_id integer PRIMARY KEY,
  created_sent boolean NOT NULL DEFAULT false,
  deleted_sent boolean NOT NULL DEFAULT false
);

-- Deliveries of the site's activities: a kind of the delivery engine (src/core/mail/delivery-engine.ts).
CREATE TABLE fediverse_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  activity text NOT NULL CHECK (activity IN ('Create', 'Update', 'Delete', 'Accept')),
  post_id integer,
  -- The activity as JSON-LD, frozen when it was queued.
  payload jsonb NOT NULL,
  -- The recipient: an actor (for Accept) and the inbox it goes to (a shared inbox when the server has one).
  recipient_id text NOT NULL,
  inbox text NOT NULL,
  server text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  sent_at timestamptz,
  -- Set when its server had failed for too long (fediverse_servers.given_up_at).
  given_up boolean NOT NULL DEFAULT false
);
CREATE INDEX fediverse_deliveries_pending_idx ON fediverse_deliveries (id) WHERE status = 'pending';
CREATE INDEX fediverse_deliveries_updated_idx ON fediverse_deliveries (updated_at);

-- A server's delivery health: failing since its first failure in a row; given up after 3 days of it.
CREATE TABLE fediverse_servers (
  server text PRIMARY KEY,
  failing_since timestamptz,
  given_up_at timestamptz
);

-- Replies from the fediverse are comments (issue 45 point 5): the remote author and the original.
ALTER TABLE comments
  ADD COLUMN author_handle text,
  ADD COLUMN author_url text,
  ADD COLUMN author_avatar text,
  ADD COLUMN original_url text,
  ADD COLUMN fediverse_object_id text UNIQUE,
  ADD COLUMN fediverse_actor_id text;
