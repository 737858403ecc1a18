import type { SqlExecutor } from "../db/sql-executor.ts";
import type { AdminCredentials } from "./admin-credentials.ts";
import type { PasswordState } from "./login.schema.ts";

/**
 * The owner's password: the environment's (ADMIN_PASSWORD_HASH, or ADMIN_PASSWORD locally) until
 * they set one in the dashboard. A dashboard password remembers which environment password it
 * replaced (that password's fingerprint); once the environment holds another one, the environment
 * wins again — the way back in for an owner who forgot the dashboard's
 * (docs/decisions/0056-first-hour-finished.md).
 */
export interface OwnerPasswordDeps {
  db: SqlExecutor;
  admin: AdminCredentials;
}

interface StoredPassword {
  hash: string;
  changedAt: Date;
}

/** The dashboard's password, while the environment's is still the one it replaced. */
async function dashboardPassword(deps: OwnerPasswordDeps): Promise<StoredPassword | null> {
  const { rows } = await deps.db.query<{ password_hash: string | null; password_environment: string | null; password_changed_at: Date | null }>(
    "SELECT password_hash, password_environment, password_changed_at FROM admin_security WHERE id = 1",
  );
  const row = rows[0];
  if (!row?.password_hash || !row.password_changed_at) return null;
  if (row.password_environment !== (await deps.admin.fingerprint())) return null;
  return { hash: row.password_hash, changedAt: row.password_changed_at };
}

/** The hash a login checks against: the dashboard's password while it holds, else the environment's (undefined: none). */
export async function ownerPasswordHash(deps: OwnerPasswordDeps): Promise<string | undefined> {
  return (await dashboardPassword(deps))?.hash ?? (await deps.admin.passwordHash());
}

/** Where the password comes from, for the Security tab and the setup checklist (`generated`: npm start made up the environment's). */
export async function passwordState(deps: OwnerPasswordDeps, generated: boolean): Promise<PasswordState> {
  const stored = await dashboardPassword(deps);
  return {
    source: stored ? "dashboard" : generated ? "generated" : "environment",
    environmentHash: deps.admin.environmentHash ?? false,
    changedAt: stored ? stored.changedAt.toISOString() : null,
  };
}
