import { createHash, randomBytes } from "node:crypto";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { isRowId } from "../db/row-id.ts";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../errors.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiKey, ApiKeyForm, ApiScope, CreatedApiKey } from "./api-key.schema.ts";

/** What API keys need: the database and the clock (the rate limit's multiplier, for load tests). */
export interface ApiKeysDeps {
  db: SqlQueryable;
  now: Clock["now"];
  env?: { RATE_LIMIT_MULTIPLIER?: number | undefined };
}

/** The caller behind a valid key: which key, and what it may reach. */
export interface ApiKeyCaller {
  id: number;
  scopes: readonly ApiScope[];
}

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs) and never taken for a session token. */
export const apiKeyPrefix = "nf_";

/** Calls a key may make in a minute (decision 0067). */
export const apiKeyRateLimit: RateLimit = { bucket: "api-key", max: 600, windowMs: 60 * 1000 };

/** How stale `last_used_at` may get before a call writes it again: at most one write a minute per key. */
export const lastUsedPrecisionMs = 60 * 1000;

export const invalidApiKeyMessage = "This API key is not valid: it may have been revoked";
export const keyRefusedMessage = "API keys cannot make this call: it needs the owner's session in the dashboard";
export const missingScopeMessage = (scope: ApiScope) => `This key lacks the scope ${scope}`;

/**
 * Only this hash is stored. A key holds 256 random bits, so a fast hash is enough: no dictionary or
 * brute force reaches it, and a slow one (scrypt) would cost every API call (decision 0067).
 */
function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

interface KeyRow {
  id: number;
  name: string;
  scopes: ApiScope[];
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
}

const toApiKey = (row: KeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  prefix: row.key_prefix,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/** Makes a key; the answer is the only place the key itself ever appears. */
export async function createApiKey(deps: ApiKeysDeps, form: ApiKeyForm): Promise<CreatedApiKey> {
  const key = `${apiKeyPrefix}${randomBytes(32).toString("base64url")}`;
  const { rows } = await deps.db.query<KeyRow>(
    `INSERT INTO api_keys (name, scopes, key_hash, key_prefix, created_at) VALUES ($1, $2::jsonb, $3, $4, $5)
     RETURNING id, name, scopes, key_prefix, created_at, last_used_at`,
    [form.name, JSON.stringify(form.scopes), hashKey(key), key.slice(0, apiKeyPrefix.length + 4), deps.now()],
  );
  return { ...toApiKey(rows[0] as KeyRow), key };
}

/** Every key, newest first, without the keys themselves. */
export async function listApiKeys(deps: ApiKeysDeps): Promise<ApiKey[]> {
  const { rows } = await deps.db.query<KeyRow>(
    "SELECT id, name, scopes, key_prefix, created_at, last_used_at FROM api_keys ORDER BY created_at DESC, id DESC",
  );
  return rows.map(toApiKey);
}

/** Revokes a key: its row goes, so the very next call with it is refused. */
export async function revokeApiKey(deps: ApiKeysDeps, id: number): Promise<void> {
  const { rows } = isRowId(id) ? await deps.db.query("DELETE FROM api_keys WHERE id = $1 RETURNING id", [id]) : { rows: [] };
  if (rows.length === 0) throw new NotFoundError("This API key no longer exists");
}

/**
 * The caller behind a key, or 401. One statement: the lookup by hash, and the last-used time
 * written only when it is over a minute old, so a busy key costs one write a minute, not one a call.
 */
export async function authenticateApiKey(deps: ApiKeysDeps, key: string): Promise<ApiKeyCaller> {
  if (!key.startsWith(apiKeyPrefix)) throw new UnauthorizedError(invalidApiKeyMessage);
  const now = deps.now();
  const { rows } = await deps.db.query<{ id: number; scopes: ApiScope[] }>(
    `WITH found AS (SELECT id, scopes, last_used_at FROM api_keys WHERE key_hash = $1),
     touched AS (
       UPDATE api_keys SET last_used_at = $2 FROM found
        WHERE api_keys.id = found.id AND (found.last_used_at IS NULL OR found.last_used_at <= $3))
     SELECT id, scopes FROM found`,
    [hashKey(key), now, new Date(now.getTime() - lastUsedPrecisionMs)],
  );
  const row = rows[0];
  if (!row) throw new UnauthorizedError(invalidApiKeyMessage);
  return { id: row.id, scopes: row.scopes };
}

/** Counts one call of the key: 429 with `Retry-After` past 600 a minute. */
export async function takeApiKeyCall(deps: ApiKeysDeps, caller: ApiKeyCaller): Promise<void> {
  await takeRateLimit(deps, apiKeyRateLimit, `key:${String(caller.id)}`);
}

/**
 * Whether the key may make a call needing `needed`: `none` (or a call that names no scope) is never
 * a key's, the owner's security, backups and keys among them; otherwise 403 naming the missing scope.
 */
export function requireScope(caller: ApiKeyCaller, needed: ApiScope | "none" | undefined): void {
  if (needed === undefined || needed === "none") throw new ForbiddenError(keyRefusedMessage);
  if (!caller.scopes.includes(needed)) throw new ForbiddenError(missingScopeMessage(needed));
}
