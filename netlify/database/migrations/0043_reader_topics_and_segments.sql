-- Readers choose what they get (issue 42 points 2, 4 and 5). One schema written first so the
-- preference page, the digest, subscriber tags and segments stand on the same tables.

-- Point 2: a subscriber follows everything (the default: what everyone followed before) or the
-- topics listed in subscriber_topics, and gets every post as it goes out (`each`) or one weekly
-- digest (`weekly`). A topic is a post tag with `tags.topic = true` (0040).
ALTER TABLE subscribers
  ADD COLUMN follows_everything boolean NOT NULL DEFAULT true,
  ADD COLUMN frequency text NOT NULL DEFAULT 'each' CHECK (frequency IN ('each', 'weekly')),
  -- When the reader last changed their topics or frequency (the person's export shows it).
  ADD COLUMN preferences_updated_at timestamptz;

CREATE TABLE subscriber_topics (
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  tag_id integer NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscriber_id, tag_id)
);
-- `follows <topic>` in a segment and a send on publish probe by topic.
CREATE INDEX subscriber_topics_tag_idx ON subscriber_topics (tag_id, subscriber_id);

-- Point 4: the owner's labels on people ("subscriber tags"), a namespace apart from post tags:
-- `downloaded:pitch-deck`, `signup:home`, `import:12`, `vip`. Set by where a person came from or by
-- the owner; each assignment keeps when and why it was set.
CREATE TABLE subscriber_tags (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+([:._-][a-z0-9]+)*$' AND length(slug) <= 80),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subscriber_tags_slug_key ON subscriber_tags (slug);

CREATE TABLE subscriber_tag_assignments (
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  subscriber_tag_id integer NOT NULL REFERENCES subscriber_tags (id) ON DELETE CASCADE,
  -- Why it was set: the signup form or page, a download, an import batch, a poll answer, a
  -- payment, or the owner by hand.
  source text NOT NULL CHECK (source IN ('signup', 'download', 'import', 'poll', 'payment', 'owner')),
  -- A human line for the person's page ("downloaded Pitch deck teardown", "import of 2026-11-27").
  detail text NOT NULL DEFAULT '' CHECK (length(detail) <= 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscriber_id, subscriber_tag_id)
);
-- `tag <slug>` in a segment probes by tag.
CREATE INDEX subscriber_tag_assignments_tag_idx ON subscriber_tag_assignments (subscriber_tag_id, subscriber_id);

-- Point 5: saved segments, an expression of the grammar in docs/segments.md kept by name.
CREATE TABLE segments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  expression text NOT NULL CHECK (length(expression) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX segments_name_key ON segments (lower(name));

-- A send keeps the audience it was started with (NULL = everyone), as the owner wrote it, for its
-- page and its history; the recipients themselves are fixed in the send's recipient rows.
ALTER TABLE newsletter_sends ADD COLUMN segment text;
-- A sequence may be limited to a segment (NULL = everyone it would start for today).
ALTER TABLE sequences ADD COLUMN segment text;
