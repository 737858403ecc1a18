-- Hits per client for the public write calls (newsletter, download requests): functions are
-- stateless, so the counts live here. Old rows are pruned as new ones arrive.
CREATE TABLE rate_limit_hits (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bucket text NOT NULL,
  client_key text NOT NULL,
  hit_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_limit_hits_lookup_idx ON rate_limit_hits (bucket, client_key, hit_at);
