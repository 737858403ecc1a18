import type { z } from "zod";

/** Thrown when the environment is missing or has a bad variable; the message names each one. */
export class InvalidEnvironmentError extends Error {
  constructor(problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "InvalidEnvironmentError";
  }
}

/**
 * Variables whose values must never appear in a log line, even when they are wrong. A build hook
 * URL is a secret too: whoever has it can trigger builds.
 */
const secretNames = new Set([
  "ADMIN_PASSWORD",
  "ADMIN_PASSWORD_HASH",
  "SESSION_SECRET",
  "SESSION_SECRET_PREVIOUS",
  "DATABASE_URL",
  "NETLIFY_DB_URL",
  "SMTP_URL",
  "BUILD_HOOK_URL",
  "DKIM_PRIVATE_KEY",
  // Whoever has a webhook's secret can forge bounces and complaints.
  "POSTMARK_WEBHOOK_AUTH",
  "RESEND_WEBHOOK_SECRET",
  "MAILGUN_WEBHOOK_SIGNING_KEY",
]);

/** Parses `env` with `schema`, turning zod's issues into one line per variable. */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: Record<string, string | undefined>): z.output<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new InvalidEnvironmentError(
    result.error.issues.map((issue) => {
      const name = issue.path.join(".") || "environment";
      const raw = issue.path.length === 1 && !secretNames.has(name) ? env[name] : undefined;
      return raw === undefined ? `${name}: ${issue.message}` : `${name}: ${issue.message} (got "${raw}")`;
    }),
  );
}
