-- A background run's signed start is spent once (issue 26): its nonce is kept until the request
-- could no longer verify anyway.
CREATE TABLE background_run_starts (
  nonce text PRIMARY KEY,
  issued_at timestamptz NOT NULL
);
