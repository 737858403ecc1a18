-- A background run's signed start is spent once (issue 26): its nonce is kept until the request
-- could no longer verify anyway.
CREATE TABLE background_run_starts (
  nonce text PRIMARY KEY,
  issued_at timestamptz NOT NULL
);

-- Whether the public site has caught up with the content (issue 26): a change is built only once
-- a build-hook call that started after it answered 2xx. One row.
CREATE TABLE site_build_status (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- The last content change that asked for a build.
  requested_at timestamptz,
  -- Changes up to this time are built: the start of the last hook call that answered 2xx.
  built_through timestamptz,
  -- The last hook call that failed, how many failed in a row, and why (the last one).
  last_attempt_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0,
  last_error text
);
INSERT INTO site_build_status (id) VALUES (1);
