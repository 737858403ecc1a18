import { z } from "zod";
import { InvalidEnvironmentError, parseEnv } from "../../src/config/env-errors.ts";
import { serverEnvSchema } from "../../src/config/server-env.ts";
import type { LocalSecrets } from "./local-secrets.ts";

const port = () =>
  z.coerce
    .number({ error: "must be a port number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535");

const milliseconds = () => z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number").min(1, "must be at least 1");

/** `npm start`'s environment: the server's own variables plus the ports it listens on. */
export const localEnvSchema = serverEnvSchema.extend({
  PORT: port().default(8888),
  /** The address to listen on: this machine only unless set (e.g. `0.0.0.0` to open it to the network). */
  HOST: z.preprocess((value) => (value === "" ? undefined : value), z.string().trim().min(1).default("127.0.0.1")),
  /** The local SMTP catcher's port (on 127.0.0.1) when SMTP_URL is not set; a free one if unset. */
  MAIL_CATCHER_PORT: z.preprocess((value) => (value === "" ? undefined : value), port().optional()),
  /** Every provider pause's length, instead of 1 minute then 2: the browser tests wait seconds, not minutes. */
  PROVIDER_PAUSE_MS: z.preprocess((value) => (value === "" ? undefined : value), milliseconds().optional()),
  /** How long the local catcher's played outage lasts (`provider-outage+…@`); 20 s if unset. */
  MAIL_CATCHER_OUTAGE_MS: z.preprocess((value) => (value === "" ? undefined : value), milliseconds().optional()),
});

export type LocalEnv = z.output<typeof localEnvSchema>;

/**
 * Reads the environment, filling the secrets a local install may leave unset from `secrets`.
 * A password hash in the environment means no generated password is needed.
 */
export function readLocalEnv(env: NodeJS.ProcessEnv, secrets: LocalSecrets): LocalEnv {
  const withSecrets = {
    ...env,
    ADMIN_PATH: env.ADMIN_PATH || secrets.ADMIN_PATH,
    SESSION_SECRET: env.SESSION_SECRET || secrets.SESSION_SECRET,
    ADMIN_PASSWORD: env.ADMIN_PASSWORD || (env.ADMIN_PASSWORD_HASH ? undefined : secrets.ADMIN_PASSWORD),
  };
  return parseEnv(localEnvSchema, withSecrets);
}

/** The variables the function entry and the site build read, as the local server hands them on. */
export function localRuntimeEnv(env: LocalEnv, siteUrl: string): Record<string, string> {
  return {
    ADMIN_USERNAME: env.ADMIN_USERNAME,
    SITE_URL: siteUrl,
    ASTRO_TELEMETRY_DISABLED: "1",
    NO_FILTER_ENV: "local",
    ...(env.ADMIN_PATH && { ADMIN_PATH: env.ADMIN_PATH }),
    ...(env.SESSION_SECRET && { SESSION_SECRET: env.SESSION_SECRET }),
    ...(env.ADMIN_PASSWORD && { ADMIN_PASSWORD: env.ADMIN_PASSWORD }),
  };
}

/** Reads the local environment or, on a bad value, says which variable and exits. */
export function readLocalEnvOrExit(env: NodeJS.ProcessEnv, secrets: LocalSecrets): LocalEnv {
  try {
    return readLocalEnv(env, secrets);
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    console.error(`[no-filter] Cannot start. ${error.message}`);
    process.exit(1);
  }
}

/**
 * The login `npm start` prints: the password only when it was generated for this install (and so
 * lives in the secrets file anyway, named as `secretsFile`: where `LOCAL_STATE_DIR` put it), never
 * one the owner supplied in the environment.
 */
export function adminLoginLine(env: LocalEnv, processEnv: NodeJS.ProcessEnv, secretsFile = ".netlify/local-secrets.json"): string {
  const password = processEnv.ADMIN_PASSWORD
    ? "(the ADMIN_PASSWORD you set)"
    : env.ADMIN_PASSWORD
      ? `${env.ADMIN_PASSWORD} (generated, kept in ${secretsFile})`
      : "(from ADMIN_PASSWORD_HASH)";
  return `${env.ADMIN_USERNAME} / ${password}`;
}
