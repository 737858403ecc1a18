-- Rate limits as one counter per client per window instead of one row per hit: a check costs the
-- same however many hits a client has made (counting stored hits grew with every hit).
-- UNLOGGED: the counters skip the write-ahead log, so a public write commits one WAL flush (its
-- subscriber or count), not two. Figures: docs/decisions/0008-rate-limit-counters.md. A crash,
-- or Neon suspending an idle compute, empties them; a limit forgetting old hits is harmless.
CREATE UNLOGGED TABLE rate_limit_counters (
  bucket text NOT NULL,
  client_key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, client_key, window_start)
);
DROP TABLE rate_limit_hits;
