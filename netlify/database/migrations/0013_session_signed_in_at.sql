-- Each session remembers when its owner last proved who they are (a password or a passkey, at
-- login or since), so a security change can ask for a sign-in from the last few minutes
-- (src/core/auth/recent-sign-in.ts). Sessions from before this column count from their login.
ALTER TABLE admin_sessions ADD COLUMN signed_in_at timestamptz;
UPDATE admin_sessions SET signed_in_at = created_at;
ALTER TABLE admin_sessions ALTER COLUMN signed_in_at SET NOT NULL;
