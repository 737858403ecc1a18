-- Moving in and out (issue 32): imports from Ghost, WordPress, Substack and Medium, and backups.

-- One import run: a dry run or the real one, its uploaded file in the file store until it is done,
-- and the report the dashboard shows (src/core/imports/import.schema.ts).
CREATE TABLE import_runs (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('ghost', 'wordpress', 'substack', 'medium')),
  dry_run boolean NOT NULL,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  file_key text NOT NULL,
  site_url text,
  report jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- Which post each imported item became: importing the same file again skips it (idempotent).
CREATE TABLE imported_posts (
  source text NOT NULL,
  source_id text NOT NULL,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  PRIMARY KEY (source, source_id)
);
CREATE INDEX imported_posts_post_idx ON imported_posts (post_id);

-- An imported post's address on the old site (a path), answered 301 to its page by the build's _redirects.
CREATE TABLE import_redirects (
  old_path text PRIMARY KEY CHECK (old_path ~ '^/[^\s]*$' AND length(old_path) <= 1000),
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE
);
CREATE INDEX import_redirects_post_idx ON import_redirects (post_id);

-- Backups (an archive in the file store) and restores (an uploaded archive being read back).
CREATE TABLE backup_runs (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('backup', 'restore')),
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  file_key text,
  bytes bigint,
  replace_content boolean NOT NULL DEFAULT false,
  report jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX backup_runs_kind_idx ON backup_runs (kind, created_at DESC);
