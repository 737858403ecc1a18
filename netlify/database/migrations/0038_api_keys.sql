-- API keys (issue 46 point 1, docs/decisions/0067-api-keys.md): a name, its scopes, and only the
-- SHA-256 of the key, which is shown once at creation. Revoking a key deletes its row, so the next
-- call with it finds nothing. Left out of backups (src/core/backups/backup-tables.ts).

CREATE TABLE api_keys (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  scopes jsonb NOT NULL CHECK (jsonb_typeof(scopes) = 'array'),
  -- Hex SHA-256 of the whole key: one index probe per call.
  key_hash text NOT NULL UNIQUE,
  -- The key's first characters, to tell keys apart in the list (24 of its 256 random bits).
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  -- Written at most once a minute per key, not on every call.
  last_used_at timestamptz
);
