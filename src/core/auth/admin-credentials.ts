import { createHash, scrypt } from "node:crypto";
import { hashPassword, type ScryptCost } from "./password.ts";

/** The configuration the owner's login is read from (the environment's names). */
export interface AdminAccount {
  ADMIN_USERNAME: string;
  ADMIN_PASSWORD?: string | undefined;
  ADMIN_PASSWORD_HASH?: string | undefined;
}

/** The one admin's login, from the environment. */
export interface AdminCredentials {
  username: string;
  /** Whether the environment sets ADMIN_PASSWORD_HASH (production always does). */
  environmentHash?: boolean;
  /** The password hash to verify against, or undefined when no password is configured. */
  passwordHash: () => Promise<string | undefined>;
  /**
   * Names these credentials without revealing them: the same for the same username and password
   * in every function instance and after a restart, different once either changes. Each session
   * stores the one it was started under, so a password change ends every session.
   */
  fingerprint: () => Promise<string>;
}

/**
 * The cost of the in-memory hash of a plain `ADMIN_PASSWORD`: the session fingerprint's (below).
 * That password is local only (production refuses it) and sits in plain text in the environment and
 * in `npm start`'s secrets file, so a slower hash protects nothing; at OWASP's minimum each local
 * login took 0.72 s of CPU here, about 50 CPU seconds of the browser tests' 70 logins (decision 0094).
 * A password the owner sets in the dashboard, and ADMIN_PASSWORD_HASH, keep the full cost.
 */
export const plainPasswordCost: ScryptCost = { N: 2 ** 14, r: 8, p: 1 };

/**
 * `ADMIN_PASSWORD_HASH` is used as is; a plain `ADMIN_PASSWORD` (local use) is hashed once, in
 * memory, on first use — so the plain text is never compared directly and never stored.
 */
export function adminCredentials(env: AdminAccount): AdminCredentials {
  let hashed: Promise<string | undefined> | undefined;
  let fingerprint: Promise<string> | undefined;
  return {
    username: env.ADMIN_USERNAME,
    environmentHash: Boolean(env.ADMIN_PASSWORD_HASH),
    passwordHash: () =>
      (hashed ??= env.ADMIN_PASSWORD_HASH
        ? Promise.resolve(env.ADMIN_PASSWORD_HASH)
        : env.ADMIN_PASSWORD
          ? hashPassword(env.ADMIN_PASSWORD, plainPasswordCost)
          : Promise.resolve(undefined)),
    fingerprint: () => (fingerprint ??= credentialsFingerprint(env)),
  };
}

async function credentialsFingerprint(env: AdminAccount): Promise<string> {
  // The hashed plain password gets a new random salt in every process, so it can't name the
  // password across restarts; a salt from the username can. Local use only (production refuses
  // ADMIN_PASSWORD), and still slow to guess from a copy of the database.
  const secret = env.ADMIN_PASSWORD_HASH ?? (env.ADMIN_PASSWORD ? await localPasswordKey(env.ADMIN_PASSWORD, env.ADMIN_USERNAME) : "");
  return createHash("sha256").update(`no-filter admin credentials\0${env.ADMIN_USERNAME}\0${secret}`).digest("base64url");
}

function localPasswordKey(password: string, username: string): Promise<string> {
  const salt = createHash("sha256").update(`no-filter session fingerprint\0${username}`).digest();
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, plainPasswordCost, (error, key) => {
      if (error) reject(error);
      else resolve(key.toString("base64url"));
    });
  });
}
