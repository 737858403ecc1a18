-- The dashboard at 1,000,000 subscribers (issue 39, docs/decisions/0052-dashboard-at-scale.md).

-- The subscriber list pages by keyset (newest first, then by id) and by status: one index serves
-- every status filter at any depth (and, as its prefix, what `subscribers_status_idx` served).
CREATE INDEX subscribers_status_subscribed_at_idx ON subscribers (status, subscribed_at DESC, id DESC);
DROP INDEX subscribers_status_idx;
