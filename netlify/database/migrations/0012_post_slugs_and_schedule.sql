-- Posts get a unique slug (their public URL, /blog/{slug}). New posts take one from the app's rules
-- (src/core/posts/post-slug-rules.ts); rows already here get an ASCII approximation of the same rules,
-- numbered by id where two titles give the same slug.
ALTER TABLE posts ADD COLUMN slug text;

WITH base AS (
  SELECT id, COALESCE(NULLIF(trim(BOTH '-' FROM left(trim(BOTH '-' FROM regexp_replace(lower(title), '[^a-z0-9]+', '-', 'g')), 70)), ''), 'post') AS slug
  FROM posts
), allowed AS (
  SELECT id, CASE WHEN slug ~ '^[0-9]+$' OR slug IN ('page', 'category', 'post-not-found') THEN 'post-' || slug ELSE slug END AS slug
  FROM base
), numbered AS (
  SELECT id, slug, row_number() OVER (PARTITION BY slug ORDER BY id) AS nth FROM allowed
)
UPDATE posts SET slug = CASE WHEN numbered.nth = 1 THEN numbered.slug ELSE numbered.slug || '-' || posts.id END
FROM numbered WHERE numbered.id = posts.id;

-- Rows written outside the app (scripts, benches) get a random valid slug rather than failing.
ALTER TABLE posts ALTER COLUMN slug SET DEFAULT 'post-' || substr(md5(random()::text), 1, 12);
ALTER TABLE posts ALTER COLUMN slug SET NOT NULL;
ALTER TABLE posts ADD CONSTRAINT posts_slug_format
  CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80 AND slug !~ '^[0-9]+$');
CREATE UNIQUE INDEX posts_slug_key ON posts (slug);

-- A post's earlier slugs, so links to them answer a permanent redirect to the current one. A slug
-- taken again by a post (any post) leaves this table.
CREATE TABLE post_slug_redirects (
  old_slug text PRIMARY KEY,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX post_slug_redirects_post_idx ON post_slug_redirects (post_id);

-- Scheduled publishing: a draft with a time to go live. When the time comes, the due-posts check
-- publishes it (published_at = publish_at) and clears this column.
ALTER TABLE posts ADD COLUMN publish_at timestamptz;
ALTER TABLE posts ADD CONSTRAINT posts_publish_at_draft CHECK (publish_at IS NULL OR NOT published);
CREATE INDEX posts_publish_at_idx ON posts (publish_at) WHERE publish_at IS NOT NULL;
