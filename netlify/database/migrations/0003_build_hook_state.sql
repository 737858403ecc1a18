-- When content last asked for a rebuild and when the build hook was last called: shared by every
-- function instance, so bursts of changes call Netlify's hook at most once per short window.
CREATE TABLE build_hook_state (
  id integer PRIMARY KEY CHECK (id = 1),
  requested_at timestamptz NOT NULL,
  called_at timestamptz NOT NULL
);
