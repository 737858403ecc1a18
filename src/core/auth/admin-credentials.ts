import type { ServerEnv } from "../../config/server-env.ts";
import { hashPassword } from "./password.ts";

/** The one admin's login, from the environment. */
export interface AdminCredentials {
  username: string;
  /** The password hash to verify against, or undefined when no password is configured. */
  passwordHash: () => Promise<string | undefined>;
}

/**
 * `ADMIN_PASSWORD_HASH` is used as is; a plain `ADMIN_PASSWORD` (local use) is hashed once, in
 * memory, on first use — so the plain text is never compared directly and never stored.
 */
export function adminCredentials(env: Pick<ServerEnv, "ADMIN_USERNAME" | "ADMIN_PASSWORD" | "ADMIN_PASSWORD_HASH">): AdminCredentials {
  let hashed: Promise<string | undefined> | undefined;
  return {
    username: env.ADMIN_USERNAME,
    passwordHash: () =>
      (hashed ??= env.ADMIN_PASSWORD_HASH
        ? Promise.resolve(env.ADMIN_PASSWORD_HASH)
        : env.ADMIN_PASSWORD
          ? hashPassword(env.ADMIN_PASSWORD)
          : Promise.resolve(undefined)),
  };
}
