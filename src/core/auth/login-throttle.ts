import type { SqlQueryable } from "../db/sql-executor.ts";
import { RateLimitedError } from "../errors.ts";

/**
 * A stranger's attempts (no device cookie, see device-cookies.ts) are counted twice. Per client
 * address (an IPv6 address by its /64, whatever username it tries): 5 attempts that were not
 * successful logins per 15 minutes. Per account, from any address: 10 failures in a row are free,
 * then each further failure locks the account for 1 s, 2 s, 4 s… up to 15 minutes. Failures are
 * forgotten a day after the last one, or at the next successful login of a stranger.
 *
 * An account locked by strangers still admits its owner from a new browser (neither device cookie
 * nor passkey) through a lane of their network's own (decision 0062: an IPv4 /24, an IPv6 /48):
 * while the account is locked, a network may have one password checked at once; a failure there
 * closes its lane for 1 minute, then 2, 4… up to a day, and it is forgotten a day after the last
 * one. The owner's network has not been guessing, so their right password is checked at once; a
 * stranger's network gets at most 11 guesses a day that way, and the lock stays for everyone else
 * (the owner's success there does not lift it: the strangers are still at it).
 *
 * A browser that signed in before brings its device cookie and is counted under that cookie alone:
 * 10 attempts that were not successful logins per hour, whatever strangers did to the account or
 * the address. Once those are spent the cookie counts for nothing (OWASP's lockout list) and its
 * attempts are a stranger's until the hour is over.
 */
export const loginThrottle = {
  maxFailures: 5,
  windowMs: 15 * 60 * 1000,
  deviceMaxFailures: 10,
  deviceWindowMs: 60 * 60 * 1000,
  accountFreeFailures: 10,
  accountBaseLockMs: 1000,
  accountMaxLockMs: 15 * 60 * 1000,
  accountForgetMs: 24 * 60 * 60 * 1000,
  laneBaseLockMs: 60 * 1000,
  laneMaxLockMs: 24 * 60 * 60 * 1000,
  laneForgetMs: 24 * 60 * 60 * 1000,
};

export interface ThrottleDeps {
  db: SqlQueryable;
  now: () => Date;
}

/**
 * What a reservation holds, to release on success: a trusted device's key, a stranger's two, or
 * (the account locked) the address and its lane through the lock.
 */
export type LoginReservation = { deviceKey: string } | { addressKey: string; accountKey: string } | { addressKey: string; laneKey: string };

/**
 * Reserves one attempt before the password is checked: against the device cookie's own budget when
 * `device` (the nonce of a valid device cookie for this username) is given and not spent, else
 * against the address and the account. Each count is one statement (an upsert that counts only
 * while under the limit), so concurrent guesses cannot all pass a count taken before any of them
 * was recorded. Throws 429 with the wait when refused.
 */
export async function reserveLoginAttempt(deps: ThrottleDeps, address: string, username: string, device?: string | null): Promise<LoginReservation> {
  const t = loginThrottle;
  if (device) {
    const deviceKey = `device:${device}`;
    if (await countInWindow(deps, deviceKey, t.deviceMaxFailures, t.deviceWindowMs)) return { deviceKey };
  }
  const reservation = { addressKey: `address:${address}`, accountKey: `account:${username.toLowerCase()}` };
  const now = deps.now();
  if (!(await countInWindow(deps, reservation.addressKey, t.maxFailures, t.windowMs)))
    throw await refusal(deps, reservation.addressKey, "expires_at");

  const accountCounted = await deps.db.query(
    `INSERT INTO login_throttle AS t (key, attempts, window_start, expires_at) VALUES ($1, 1, $2, $7)
     ON CONFLICT (key) DO UPDATE SET
       attempts = CASE WHEN t.window_start <= $3 THEN 1 ELSE t.attempts + 1 END,
       window_start = $2,
       expires_at = $7,
       locked_until = CASE WHEN t.window_start > $3 AND t.attempts >= $4
         THEN $2::timestamptz + least($5::float8 * power(2, t.attempts - $4), $6::float8) * interval '1 millisecond' END
     WHERE t.locked_until IS NULL OR t.locked_until <= $2
     RETURNING attempts`,
    [
      reservation.accountKey,
      now,
      new Date(now.getTime() - t.accountForgetMs),
      t.accountFreeFailures,
      t.accountBaseLockMs,
      t.accountMaxLockMs,
      new Date(now.getTime() + t.accountForgetMs),
    ],
  );
  if (accountCounted.rows.length === 0) {
    const laneKey = `lane:${laneNetwork(address)}`;
    if (await openLane(deps, laneKey)) return { addressKey: reservation.addressKey, laneKey };
    // The address did not get to try: give its attempt back.
    await releaseAddress(deps, reservation.addressKey);
    throw await refusal(deps, [reservation.accountKey, laneKey], "locked_until");
  }
  return reservation;
}

/**
 * The network a lane belongs to, from the address's key (client-key.ts): an IPv4 address's /24, an
 * IPv6 /64's /48 (the block a site or a cloud customer is given), so a stranger's fresh addresses in
 * one network share one lane. Anything else is its own network.
 */
function laneNetwork(addressKey: string): string {
  const ipv4 = /^(\d+\.\d+\.\d+)\.\d+$/.exec(addressKey);
  if (ipv4) return `${ipv4[1] ?? ""}.0/24`;
  const ipv6 = /^([\da-f]+:[\da-f]+:[\da-f]+):[\da-f]+::\/64$/.exec(addressKey);
  if (ipv6) return `${ipv6[1] ?? ""}::/48`;
  return addressKey;
}

/**
 * The network's lane through a locked account: open when it has no lane failure still closing it,
 * and closed at once by this attempt for 1 minute, 2, 4… (the attempts counted since the lane was
 * last forgotten), so concurrent attempts from one address get one check. A success deletes it.
 */
async function openLane(deps: ThrottleDeps, laneKey: string): Promise<boolean> {
  const t = loginThrottle;
  const now = deps.now();
  const attempts = "CASE WHEN t.expires_at <= $2 THEN 1 ELSE t.attempts + 1 END";
  const opened = await deps.db.query(
    `INSERT INTO login_throttle AS t (key, attempts, window_start, locked_until, expires_at)
       VALUES ($1, 1, $2, $2::timestamptz + $3::float8 * interval '1 millisecond', $5)
     ON CONFLICT (key) DO UPDATE SET
       attempts = ${attempts},
       window_start = $2,
       locked_until = $2::timestamptz + least($3::float8 * power(2, ${attempts} - 1), $4::float8) * interval '1 millisecond',
       expires_at = $5
     WHERE t.locked_until IS NULL OR t.locked_until <= $2
     RETURNING attempts`,
    [laneKey, now, t.laneBaseLockMs, t.laneMaxLockMs, new Date(now.getTime() + t.laneForgetMs)],
  );
  return opened.rows.length > 0;
}

/**
 * A successful login. A trusted device's failures are forgotten (the account's are not: the
 * owner's browser signing in says nothing about the strangers), and so are a lane's (the account's
 * lock stays, for the same reason). A stranger's address attempt is given back and the account's
 * failures are forgotten.
 */
export async function releaseLoginAttempt(deps: ThrottleDeps, reservation: LoginReservation): Promise<void> {
  if ("deviceKey" in reservation) {
    await deps.db.query("DELETE FROM login_throttle WHERE key = $1", [reservation.deviceKey]);
    return;
  }
  await releaseAddress(deps, reservation.addressKey);
  await deps.db.query("DELETE FROM login_throttle WHERE key = $1", ["laneKey" in reservation ? reservation.laneKey : reservation.accountKey]);
}

/** Deletes up to 100 rows whose time is over, for every client (called as logins happen). */
export async function deleteExpiredLoginAttempts(deps: ThrottleDeps): Promise<void> {
  await deps.db.query(
    `DELETE FROM login_throttle WHERE key IN (
       SELECT key FROM login_throttle WHERE expires_at <= $1 LIMIT 100 FOR UPDATE SKIP LOCKED)`,
    [deps.now()],
  );
}

/** Counts one attempt in a fixed window of `windowMs` under `key`; false when `max` were counted already. */
async function countInWindow(deps: ThrottleDeps, key: string, max: number, windowMs: number): Promise<boolean> {
  const now = deps.now();
  const counted = await deps.db.query(
    `INSERT INTO login_throttle AS t (key, attempts, window_start, expires_at) VALUES ($1, 1, $2, $5)
     ON CONFLICT (key) DO UPDATE SET
       attempts = CASE WHEN t.window_start <= $3 THEN 1 ELSE t.attempts + 1 END,
       window_start = CASE WHEN t.window_start <= $3 THEN $2 ELSE t.window_start END,
       expires_at = CASE WHEN t.window_start <= $3 THEN $5 ELSE t.expires_at END
     WHERE t.window_start <= $3 OR t.attempts < $4
     RETURNING attempts`,
    [key, now, new Date(now.getTime() - windowMs), max, new Date(now.getTime() + windowMs)],
  );
  return counted.rows.length > 0;
}

async function releaseAddress(deps: ThrottleDeps, addressKey: string): Promise<void> {
  await deps.db.query("UPDATE login_throttle SET attempts = attempts - 1 WHERE key = $1 AND attempts > 0", [addressKey]);
}

/** A 429 saying when the soonest of `keys` lets the client try again. */
async function refusal(deps: ThrottleDeps, keys: string | string[], until: "expires_at" | "locked_until"): Promise<RateLimitedError> {
  const { rows } = await deps.db.query<{ until: Date | null }>(`SELECT min(${until}) AS until FROM login_throttle WHERE key = ANY($1::text[])`, [
    typeof keys === "string" ? [keys] : keys,
  ]);
  const waitMs = (rows[0]?.until?.getTime() ?? 0) - deps.now().getTime();
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new RateLimitedError(`Too many failed logins. Try again in ${waitText(seconds)}.`, seconds);
}

function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${String(seconds)} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${String(minutes)} minutes`;
}
