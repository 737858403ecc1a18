import type { SqlExecutor } from "../db/sql-executor.ts";
import { ValidationError } from "../errors.ts";
import type { SecurityState } from "./passkey.schema.ts";
import { passwordState, type OwnerPasswordDeps } from "./owner-password.ts";
import { listPasskeys } from "./passkeys.ts";
import { recoveryCodesLeft } from "./recovery-codes.ts";

/** Whether a password login needs a passkey (or a recovery code) as its second step. */
export async function passkeyRequired(deps: { db: SqlExecutor }): Promise<boolean> {
  const { rows } = await deps.db.query<{ passkey_required: boolean }>("SELECT passkey_required FROM admin_security WHERE id = 1");
  return rows[0]?.passkey_required ?? false;
}

/**
 * Turns "Require a passkey" on or off. On only with a passkey to sign in with and recovery codes
 * for a lost device, so the owner can't lock themselves out.
 */
export async function setPasskeyRequired(deps: { db: SqlExecutor }, required: boolean): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.query("SELECT 1 FROM admin_security WHERE id = 1 FOR UPDATE");
    if (required) {
      const { rows } = await tx.query<{ passkeys: number; codes: number }>(
        "SELECT (SELECT count(*)::int FROM admin_passkeys) AS passkeys, (SELECT count(*)::int FROM admin_recovery_codes) AS codes",
      );
      if (!rows[0]?.passkeys) throw new ValidationError("Register a passkey first: a password login would then need one.");
      if (!rows[0].codes) throw new ValidationError("Generate recovery codes first, so a lost device can't lock you out.");
    }
    await tx.query("UPDATE admin_security SET passkey_required = $1 WHERE id = 1", [required]);
  });
}

/** What the dashboard's Security area shows. */
export async function securityState(deps: OwnerPasswordDeps & { setup: { passwordGenerated: boolean } }): Promise<SecurityState> {
  const [passkeys, required, codes, password] = await Promise.all([
    listPasskeys(deps),
    passkeyRequired(deps),
    recoveryCodesLeft(deps),
    passwordState(deps, deps.setup.passwordGenerated),
  ]);
  return { passkeys, passkeyRequired: required, recoveryCodesLeft: codes, password };
}
