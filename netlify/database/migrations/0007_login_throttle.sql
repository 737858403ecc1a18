-- Login throttling, reserved before the password check (src/core/auth/login-throttle.ts). One row
-- per client address (`address:…`, its failures in a fixed window) and per account
-- (`account:…`, consecutive failures from any address and how long it is locked). Rows whose
-- `expires_at` has passed are deleted as logins happen.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  attempts integer NOT NULL,
  window_start timestamptz NOT NULL,
  locked_until timestamptz,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_throttle_expires_idx ON login_throttle (expires_at);

-- Replaced by login_throttle: it counted after the password check, so concurrent guesses all got one.
DROP TABLE login_attempts;
