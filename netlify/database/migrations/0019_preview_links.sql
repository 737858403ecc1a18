-- Signed preview links of draft and scheduled posts (issue 30). A link is its row id signed with
-- the `preview-link` key (src/core/shared/signer.ts): revoking deletes the row, so a link whose
-- signature still verifies but whose row is gone answers 410, as does one past `expires_at`.
-- Deleting the post deletes its links.
CREATE TABLE preview_links (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  created_at timestamptz NOT NULL
);

CREATE INDEX preview_links_post_id ON preview_links (post_id);
