-- Free-form tags on posts (issue 42, point 1): many a post, each with a name, a slug (its public
-- list, /blog/tag/{slug}) and an optional description. `topic` marks a tag readers may follow
-- (issue 42, point 2); the description is what readers see of a topic. The five categories stay.
CREATE TABLE tags (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80 AND slug !~ '^[0-9]+$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  description text CHECK (description IS NULL OR length(description) <= 500),
  topic boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_slug_key ON tags (slug);
-- Two tags may not differ only by case: "Funding rounds" typed again finds the tag already there.
CREATE UNIQUE INDEX tags_name_key ON tags (lower(name));

-- Which posts carry which tags, in the order the owner gave them. Deleting a tag or a post drops
-- only these links: never the other side.
CREATE TABLE post_tags (
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  tag_id integer NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  position smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (post_id, tag_id)
);
CREATE INDEX post_tags_tag_idx ON post_tags (tag_id, post_id);

-- A tag's earlier slugs, so its old list address answers a permanent redirect to the current one
-- (as post_slug_redirects does for posts). A slug taken again by a tag leaves this table.
CREATE TABLE tag_slug_redirects (
  old_slug text PRIMARY KEY,
  tag_id integer NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tag_slug_redirects_tag_idx ON tag_slug_redirects (tag_id);

-- `/blog/tags` (the index) and `/blog/tag/…` (the lists) are pages now, so no post may hold those
-- slugs (src/core/posts/post-slug-rules.ts reserves them); a post that had one moves aside, as 0012
-- did for the reserved slugs of its day.
UPDATE posts SET slug = 'post-' || slug || '-' || id WHERE slug IN ('tag', 'tags');
