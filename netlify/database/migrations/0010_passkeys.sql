-- Passkeys (WebAuthn) for the owner, src/core/auth/passkeys.ts. One row per registered credential:
-- its public key (base64url) and the signature counter it last reported (a counter that goes back means a
-- cloned authenticator and is refused).
CREATE TABLE admin_passkeys (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);

-- Challenges handed to the browser, each good once and for 5 minutes (passkey-challenges.ts).
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('registration', 'login')),
  expires_at timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires_at);

-- The owner's sign-in settings: one row. Not in site_settings, which are public.
CREATE TABLE admin_security (
  id integer PRIMARY KEY CHECK (id = 1),
  passkey_required boolean NOT NULL DEFAULT false
);
INSERT INTO admin_security (id) VALUES (1);

-- One-time recovery codes, stored as SHA-256 of the code (recovery-codes.ts says why); a used
-- code's row is deleted.
CREATE TABLE admin_recovery_codes (
  code_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL
);

-- A password step that still needs its second step (pending-logins.ts): the hash of the token in
-- its cookie, for 5 minutes.
CREATE TABLE pending_logins (
  token_hash text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX pending_logins_expires_idx ON pending_logins (expires_at);
