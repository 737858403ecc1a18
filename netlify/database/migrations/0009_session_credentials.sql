-- Each session remembers a fingerprint of the admin credentials it was started under
-- (src/core/auth/admin-credentials.ts): when the password or username changes, every session
-- started before is over. Sessions from before this column have none and end once.
ALTER TABLE admin_sessions ADD COLUMN credentials_fingerprint text NOT NULL DEFAULT '';
