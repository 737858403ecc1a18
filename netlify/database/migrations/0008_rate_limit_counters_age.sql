-- Every take deletes a bounded batch of windows that no longer count, for all clients of its bucket
-- (src/core/rate-limit.ts): this index finds them without reading the live ones.
CREATE INDEX rate_limit_counters_age_idx ON rate_limit_counters (bucket, window_start);
