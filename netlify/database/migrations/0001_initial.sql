-- Posts: drafts and published articles. Content is sanitized HTML from the editor.
CREATE TABLE posts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  content text NOT NULL CHECK (length(content) > 0),
  excerpt text CHECK (excerpt IS NULL OR length(excerpt) <= 500),
  category text CHECK (category IS NULL OR category IN ('Entrepreneurship', 'Cash Flow', 'Networking', 'Mindset', 'Funding')),
  read_time integer NOT NULL DEFAULT 5 CHECK (read_time BETWEEN 1 AND 60),
  published boolean NOT NULL DEFAULT false,
  published_at timestamptz,
  featured_image_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (published = (published_at IS NOT NULL))
);
CREATE INDEX posts_published_idx ON posts (published_at DESC, id DESC) WHERE published;

-- Downloadable resources: the file and optional thumbnail live in the blob store under these keys.
CREATE TABLE downloads (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  description text NOT NULL CHECK (length(description) > 0),
  category text NOT NULL,
  file_name text NOT NULL,
  file_key text NOT NULL,
  file_type text NOT NULL,
  file_size integer NOT NULL CHECK (file_size >= 0),
  thumbnail_key text,
  download_count integer NOT NULL DEFAULT 0 CHECK (download_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Newsletter subscribers: one row per address, whatever its case.
CREATE TABLE subscribers (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  is_active boolean NOT NULL DEFAULT true,
  source text NOT NULL DEFAULT 'newsletter',
  subscribed_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subscribers_email_key ON subscribers (lower(email));
CREATE INDEX subscribers_subscribed_at_idx ON subscribers (subscribed_at DESC, id DESC);

-- Site text settings; keys unknown to the code are kept but not shown.
CREATE TABLE site_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Admin sessions: only a hash of the cookie token is stored.
CREATE TABLE admin_sessions (
  token_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX admin_sessions_expires_idx ON admin_sessions (expires_at);

-- Failed logins per client, for throttling across stateless function instances.
CREATE TABLE login_attempts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_key text NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_client_idx ON login_attempts (client_key, attempted_at);
