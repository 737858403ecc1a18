import { createPrivateKey } from "node:crypto";
import { z } from "zod";
import { scryptParametersProblem } from "../core/auth/scrypt-parameters.ts";
import { isTimeZone } from "../core/stats/stats-days.ts";
import { parseEnv } from "./env-errors.ts";

const optional = (schema: z.ZodType<string>) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
/** `Name <address>`: a display name and an address the provider lets us send from. */
const mailFromPattern = /^[^<>\r\n]+<[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+>$/;
/** A whole number from 1 to `max`, given as text (as every environment variable is). */
const wholeNumber = (max: number) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, "must be a whole number of at least 1")
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${String(max)}`));
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" });

/** The `scrypt$N$r$p$salt$hash` format `npm run admin:hash` prints (salt and hash base64url). */
export const passwordHashPattern = /^scrypt\$\d+\$\d+\$\d+\$[\w-]{16,}\$[\w-]{43,}$/;

/** A hash in that format whose scrypt parameters a login can afford (see scrypt-parameters.ts). */
const passwordHash = z
  .string()
  .regex(passwordHashPattern, "must be a hash printed by `npm run admin:hash`")
  .superRefine((hash, ctx) => {
    const [, n, r, p] = hash.split("$").map(Number);
    const problem = passwordHashPattern.test(hash) ? scryptParametersProblem(n ?? 0, r ?? 0, p ?? 0) : undefined;
    if (problem) ctx.addIssue({ code: "custom", message: `${problem}: make a new one with \`npm run admin:hash\`` });
  });

const splitSecrets = (value: string) =>
  value
    .split(",")
    .map((secret) => secret.trim())
    .filter((secret) => secret !== "");

/** The previous session secrets SESSION_SECRET_PREVIOUS lists, newest first (none when unset). */
export function previousSessionSecrets(env: Pick<ServerEnv, "SESSION_SECRET_PREVIOUS">): string[] {
  return env.SESSION_SECRET_PREVIOUS ? splitSecrets(env.SESSION_SECRET_PREVIOUS) : [];
}

/**
 * The key as PEM with real line breaks: a dashboard or a `.env` file often keeps a multi-line value
 * on one line with `\\n` for each break.
 */
function dkimPem(value: string): string {
  return value.trim().replace(/\\n/g, "\n");
}

/** True when `pem` parses as a private key (RSA or Ed25519, what DKIM signs with). */
function isPrivateKey(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

const dkimNames = ["DKIM_DOMAIN", "DKIM_SELECTOR", "DKIM_PRIVATE_KEY"] as const;

/** nodemailer's `dkim` option from DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY; undefined when unset. */
export function dkimSigning(env: Pick<ServerEnv, (typeof dkimNames)[number]>): DkimSigning | undefined {
  if (!env.DKIM_DOMAIN || !env.DKIM_SELECTOR || !env.DKIM_PRIVATE_KEY) return undefined;
  return { domainName: env.DKIM_DOMAIN, keySelector: env.DKIM_SELECTOR, privateKey: env.DKIM_PRIVATE_KEY };
}

export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/** Environment every server-side part reads: functions, the site build and the local server. */
export const serverEnvSchema = z.object({
  DATABASE_URL: optional(postgresUrl),
  /** Set by Netlify DB in production and by the local emulation under `npm start`/`npm run dev`. */
  NETLIFY_DB_URL: optional(postgresUrl),
  /** `server` when NETLIFY_DB_URL points at Netlify's local emulation (one Postgres session). */
  NETLIFY_DB_DRIVER: optional(z.string()),
  ADMIN_USERNAME: z.string().trim().min(1, "must not be empty").max(100).default("admin"),
  ADMIN_PASSWORD: optional(z.string().min(12, "must be at least 12 characters")),
  ADMIN_PASSWORD_HASH: optional(passwordHash),
  /** Set by `npm start` when it generated ADMIN_PASSWORD (the setup checklist asks for the owner's own). */
  ADMIN_PASSWORD_GENERATED: optional(z.literal("1")),
  ADMIN_PATH: optional(z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8–64 letters, digits, '-' or '_' (no slashes)")),
  SESSION_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  /**
   * The secrets SESSION_SECRET had before, comma-separated, newest first: links they signed stay
   * valid (an unsubscribe link for ever, confirm and download links until their own expiry).
   */
  SESSION_SECRET_PREVIOUS: optional(
    z
      .string()
      .refine(
        (value) => splitSecrets(value).length > 0 && splitSecrets(value).every((secret) => secret.length >= 32),
        "must be the previous SESSION_SECRET values, comma-separated, each at least 32 characters",
      ),
  ),
  SITE_URL: optional(httpUrl),
  BUILD_HOOK_URL: optional(httpUrl),
  /** Where email goes: `smtp://` or `smtps://`, credentials in the URL (any provider's SMTP). */
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" })),
  /** SMTP connections open at once (the newsletter's messages in flight). Default 5. */
  SMTP_MAX_CONNECTIONS: z.preprocess((value) => (value === "" ? undefined : value), wholeNumber(50).default(5)),
  /** At most this many messages a second, for providers that cap the rate. Default: no cap. */
  SMTP_RATE_PER_SECOND: z.preprocess((value) => (value === "" ? undefined : value), wholeNumber(10_000).optional()),
  /** Who email comes from: `Name <address>`. */
  MAIL_FROM: optional(z.string().regex(mailFromPattern, "must be Name <address@domain>, e.g. No Filter <hello@example.com>")),
  /** Where replies go (`Reply-To`); wins over the contact_email setting. */
  MAIL_REPLY_TO: optional(z.email({ error: "must be an email address, e.g. hello@example.com" })),
  /**
   * DKIM signing (all three or none): the domain the signature claims (`d=`), the selector its
   * public key is published under (`<selector>._domainkey.<domain>` TXT), and the private key as
   * PEM. A provider that signs for you needs none of them.
   */
  DKIM_DOMAIN: optional(
    z.string().regex(/^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, "must be a domain name, e.g. example.com"),
  ),
  DKIM_SELECTOR: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*$/, "must be a DNS label, e.g. mail2026"),
  ),
  DKIM_PRIVATE_KEY: optional(
    z
      .string()
      .transform(dkimPem)
      .refine(isPrivateKey, "must be a private key in PEM (-----BEGIN PRIVATE KEY----- …), with its line breaks or with \\n for each"),
  ),
  /**
   * Bounce and complaint webhooks (docs/email.md): each provider's is listened to only once its
   * secret is set. Postmark: the `user:password` put in the webhook URL.
   */
  POSTMARK_WEBHOOK_AUTH: optional(z.string().regex(/^[^:\s]+:\S{12,}$/, "must be user:password, the password at least 12 characters")),
  /** Resend's webhook signing secret (`whsec_…`). */
  RESEND_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must be the webhook's signing secret, whsec_…")),
  /** Mailgun's HTTP webhook signing key. */
  MAILGUN_WEBHOOK_SIGNING_KEY: optional(z.string().min(16, "must be Mailgun's webhook signing key")),
  /** SendGrid's Signed Event Webhook verification key (base64, as Mail Settings shows it). */
  SENDGRID_WEBHOOK_PUBLIC_KEY: optional(z.string().regex(/^[A-Za-z0-9+/=\s-]{60,}$/, "must be the verification key SendGrid shows (base64)")),
  /** The Amazon SNS topics SES publishes bounces and complaints to, comma-separated ARNs. */
  SES_SNS_TOPIC_ARNS: optional(
    z
      .string()
      .refine(
        (value) => value.split(",").every((arn) => /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(arn.trim())),
        "must be SNS topic ARNs, comma-separated, e.g. arn:aws:sns:us-east-1:123456789012:ses-events",
      ),
  ),
  /** `true` in Netlify's builds. */
  NETLIFY: optional(z.string()),
  /** Set by Netlify in functions at run time. */
  SITE_ID: optional(z.string()),
  /** `local` under `npm start`, `npm run dev` and their site builds: the relaxed local rules. */
  NO_FILTER_ENV: optional(z.enum(["local"])),
  /**
   * Multiplies the per-client limits of the public write calls (newsletter, download requests).
   * `npm run bench` raises it so a load test from one address measures the calls, not the 429s.
   */
  RATE_LIMIT_MULTIPLIER: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").optional(),
  ),
  /** `1`: an import may fetch images from private and loopback addresses (tests serve them locally). Never in production. */
  IMPORT_ALLOW_PRIVATE_HOSTS: optional(z.enum(["1", "0"], { error: "must be 1 or 0" })),
  /** The time zone the Stats tab's days are counted in (an IANA name, e.g. Europe/Paris). Default UTC. */
  SITE_TIME_ZONE: optional(z.string().refine(isTimeZone, "must be an IANA time zone name, e.g. Europe/Paris or UTC")),
  /**
   * Payments (docs/payments.md): the owner's Stripe secret key (`sk_test_…`/`sk_live_…`, or a
   * restricted `rk_…` one) and the webhook endpoint's signing secret. Both or neither; without them
   * every paid feature is hidden.
   */
  STRIPE_SECRET_KEY: optional(z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, "must be a Stripe secret key, sk_test_… or sk_live_…")),
  STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_[A-Za-z0-9+/=]{8,}$/, "must be the webhook endpoint's signing secret, whsec_…")),
  /** Where the `stripe` library sends its calls; default Stripe's own (the tests and `npm start` may point it at the local fake). */
  STRIPE_API_URL: optional(httpUrl),
  /** `off` keeps newsletter links as written (no click counting through the site's signed redirect). */
  CLICK_TRACKING: optional(z.enum(["on", "off"], { error: "must be on or off" })),
});

/**
 * On Netlify (a build, or a function at run time) and not marked local: the production rules apply.
 * Netlify sets NETLIFY=true in builds and SITE_ID in functions.
 */
export function isProduction(env: { NETLIFY?: string | undefined; SITE_ID?: string | undefined; NO_FILTER_ENV?: string | undefined }): boolean {
  if (env.NO_FILTER_ENV === "local") return false;
  return env.NETLIFY === "true" || Boolean(env.SITE_ID);
}

/** What production needs that a local install may leave out, each named with how to fix it. */
const productionEnvSchema = serverEnvSchema.superRefine((env, ctx) => {
  const problem = (variable: string, message: string) => ctx.addIssue({ code: "custom", path: [variable], message });
  // Half a DKIM setup would send unsigned mail the owner believes signed: refused everywhere.
  const dkimSet = dkimNames.filter((name) => env[name] !== undefined);
  if (dkimSet.length > 0 && dkimSet.length < dkimNames.length) {
    for (const name of dkimNames.filter((candidate) => env[candidate] === undefined)) {
      problem(name, `is required with ${dkimSet.join(" and ")}: DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together`);
    }
  }
  // Half a Stripe setup would take money it never hears about, or hear events it cannot check.
  if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
    const missing = env.STRIPE_SECRET_KEY === undefined ? "STRIPE_SECRET_KEY" : "STRIPE_WEBHOOK_SECRET";
    problem(
      missing,
      "is required with the other Stripe variable: payments need STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together (docs/payments.md)",
    );
  }
  if (!isProduction(env)) return;
  if (!env.DATABASE_URL && !env.NETLIFY_DB_URL) {
    problem("DATABASE_URL", "no database configured in production: set DATABASE_URL (Neon) or enable Netlify DB (NETLIFY_DB_URL)");
  }
  if (env.ADMIN_PASSWORD) {
    problem("ADMIN_PASSWORD", "a plain password is refused in production: set ADMIN_PASSWORD_HASH instead (npm run admin:hash)");
  }
  if (!env.ADMIN_PASSWORD_HASH) problem("ADMIN_PASSWORD_HASH", "is required in production (npm run admin:hash prints one)");
  if (!env.SESSION_SECRET) problem("SESSION_SECRET", "is required in production (at least 32 random characters)");
  if (!env.ADMIN_PATH) problem("ADMIN_PATH", "is required in production (the hidden dashboard path)");
  if (!env.SITE_URL) problem("SITE_URL", "is required in production (the site's public https:// address)");
  if (!env.SMTP_URL) problem("SMTP_URL", "is required in production (your email provider's SMTP URL, smtps://user:password@host:465)");
  if (!env.MAIL_FROM) problem("MAIL_FROM", "is required in production (Name <address@your-domain>)");
});

export type ServerEnv = z.output<typeof serverEnvSchema>;

/**
 * Checks the environment a composition root read (`process.env` in the function entry and the site
 * build); on Netlify the production rules apply too.
 */
export function readServerEnv(env: Record<string, string | undefined>): ServerEnv {
  return parseEnv(productionEnvSchema, env);
}

/** Stripe's settings when payments are set up (both secrets), else undefined: every paid feature hidden. */
export function stripeSettings(env: Pick<ServerEnv, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_URL">) {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) return undefined;
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL };
}

/** The database to use: an explicit `DATABASE_URL` wins over Netlify's. */
export function databaseUrl(env: ServerEnv): string | undefined {
  return env.DATABASE_URL ?? env.NETLIFY_DB_URL;
}
