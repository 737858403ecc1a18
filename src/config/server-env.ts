import { z } from "zod";
import { parseEnv } from "./env-errors.ts";

const optional = (schema: z.ZodType<string>) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" });

/** The `scrypt$N$r$p$salt$hash` format `npm run admin:hash` prints (salt and hash base64url). */
export const passwordHashPattern = /^scrypt\$\d+\$\d+\$\d+\$[\w-]{16,}\$[\w-]{43,}$/;

/** Environment every server-side part reads: functions, the site build and the local server. */
export const serverEnvSchema = z.object({
  DATABASE_URL: optional(postgresUrl),
  /** Set by Netlify DB in production and by the local emulation under `npm start`/`npm run dev`. */
  NETLIFY_DB_URL: optional(postgresUrl),
  /** `server` when NETLIFY_DB_URL points at Netlify's local emulation (one Postgres session). */
  NETLIFY_DB_DRIVER: optional(z.string()),
  ADMIN_USERNAME: z.string().trim().min(1, "must not be empty").max(100).default("admin"),
  ADMIN_PASSWORD: optional(z.string().min(12, "must be at least 12 characters")),
  ADMIN_PASSWORD_HASH: optional(z.string().regex(passwordHashPattern, "must be a hash printed by `npm run admin:hash`")),
  ADMIN_PATH: optional(
    z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8–64 letters, digits, '-' or '_' (no slashes)"),
  ),
  SESSION_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  SITE_URL: optional(httpUrl),
  BUILD_HOOK_URL: optional(httpUrl),
});

export type ServerEnv = z.output<typeof serverEnvSchema>;

export function readServerEnv(env: Record<string, string | undefined> = process.env): ServerEnv {
  return parseEnv(serverEnvSchema, env);
}

/** The database to use: an explicit `DATABASE_URL` wins over Netlify's. */
export function databaseUrl(env: ServerEnv): string | undefined {
  return env.DATABASE_URL ?? env.NETLIFY_DB_URL;
}
