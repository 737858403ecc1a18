import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { InvalidEnvironmentError } from "./env-errors.ts";
import { databaseUrl, dkimSigning, previousSessionSecrets, readServerEnv, stripeSettings } from "./server-env.ts";

describe("server environment", () => {
  it("names each bad variable and the value it got", () => {
    const read = () => readServerEnv({ SITE_URL: "not a url", ADMIN_PATH: "has/slash" });
    expect(read).toThrow(InvalidEnvironmentError);
    expect(read).toThrow(/SITE_URL: must be an http\(s\) URL \(got "not a url"\)/);
    expect(read).toThrow(/ADMIN_PATH: must be 8–64 letters/);
  });

  it("refuses a password hash in the wrong format", () => {
    expect(() => readServerEnv({ ADMIN_PASSWORD_HASH: "plaintext" })).toThrow(/ADMIN_PASSWORD_HASH: must be a hash/);
  });

  it("defaults the username and prefers DATABASE_URL over Netlify's", () => {
    const env = readServerEnv({ DATABASE_URL: "postgres://a@db/one", NETLIFY_DB_URL: "postgres://b@db/two", SITE_URL: "" });
    expect(env.ADMIN_USERNAME).toBe("admin");
    expect(env.SITE_URL).toBeUndefined();
    expect(databaseUrl(env)).toBe("postgres://a@db/one");
    expect(databaseUrl(readServerEnv({ NETLIFY_DB_URL: "postgres://b@db/two" }))).toBe("postgres://b@db/two");
  });

  it("reads the SMTP pool size (default 5) and an optional rate cap as whole numbers", () => {
    const defaults = readServerEnv({});
    expect([defaults.SMTP_MAX_CONNECTIONS, defaults.SMTP_RATE_PER_SECOND]).toEqual([5, undefined]);
    const set = readServerEnv({ SMTP_MAX_CONNECTIONS: "10", SMTP_RATE_PER_SECOND: "" });
    expect([set.SMTP_MAX_CONNECTIONS, set.SMTP_RATE_PER_SECOND]).toEqual([10, undefined]);
    expect(readServerEnv({ SMTP_RATE_PER_SECOND: "14" }).SMTP_RATE_PER_SECOND).toBe(14);
    expect(() => readServerEnv({ SMTP_MAX_CONNECTIONS: "0" })).toThrow(/SMTP_MAX_CONNECTIONS: must be a whole number of at least 1/);
    expect(() => readServerEnv({ SMTP_MAX_CONNECTIONS: "500" })).toThrow(/SMTP_MAX_CONNECTIONS: must be at most 50/);
    expect(() => readServerEnv({ SMTP_RATE_PER_SECOND: "fast" })).toThrow(/SMTP_RATE_PER_SECOND: must be a whole number/);
  });
});

describe("bounce and complaint webhooks", () => {
  it("reads each provider's secret, unset by default; a malformed one is named, a secret never printed", () => {
    const unset = readServerEnv({});
    expect([unset.POSTMARK_WEBHOOK_AUTH, unset.RESEND_WEBHOOK_SECRET, unset.MAILGUN_WEBHOOK_SIGNING_KEY, unset.SES_SNS_TOPIC_ARNS]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const set = readServerEnv({
      POSTMARK_WEBHOOK_AUTH: "hooks:long-enough-password",
      RESEND_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      SES_SNS_TOPIC_ARNS: "arn:aws:sns:us-east-1:123456789012:ses-events, arn:aws:sns:eu-west-1:123456789012:other",
    });
    expect(set.POSTMARK_WEBHOOK_AUTH).toBe("hooks:long-enough-password");
    expect(() => readServerEnv({ POSTMARK_WEBHOOK_AUTH: "hooks:short" })).toThrow(/POSTMARK_WEBHOOK_AUTH: must be user:password/);
    expect(() => readServerEnv({ POSTMARK_WEBHOOK_AUTH: "hooks:short" })).not.toThrow(/short/);
    expect(() => readServerEnv({ RESEND_WEBHOOK_SECRET: "secret" })).toThrow(/RESEND_WEBHOOK_SECRET: must be the webhook's signing secret/);
    expect(() => readServerEnv({ SES_SNS_TOPIC_ARNS: "my-topic" })).toThrow(/SES_SNS_TOPIC_ARNS: must be SNS topic ARNs/);
  });
});

describe("stats", () => {
  it("reads the site's time zone (an IANA name) and CLICK_TRACKING (on or off)", () => {
    expect(readServerEnv({}).SITE_TIME_ZONE).toBeUndefined();
    expect(readServerEnv({ SITE_TIME_ZONE: "Europe/Paris" }).SITE_TIME_ZONE).toBe("Europe/Paris");
    expect(() => readServerEnv({ SITE_TIME_ZONE: "Mars/Olympus" })).toThrow(/SITE_TIME_ZONE: must be an IANA time zone name/);
    expect(readServerEnv({ CLICK_TRACKING: "off" }).CLICK_TRACKING).toBe("off");
    expect(() => readServerEnv({ CLICK_TRACKING: "no" })).toThrow(/CLICK_TRACKING: must be on or off/);
  });
});

describe("DKIM and Reply-To", () => {
  const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const dkim = { DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "mail2026", DKIM_PRIVATE_KEY: pem };

  it("signs with all three set, the key with its line breaks or with \\n for each; none set signs nothing", () => {
    expect(dkimSigning(readServerEnv(dkim))).toEqual({ domainName: "example.com", keySelector: "mail2026", privateKey: pem.trim() });
    const oneLine = readServerEnv({ ...dkim, DKIM_PRIVATE_KEY: pem.trim().replaceAll("\n", "\\n") });
    expect(dkimSigning(oneLine)?.privateKey).toBe(pem.trim());
    expect(dkimSigning(readServerEnv({ DKIM_DOMAIN: "", DKIM_SELECTOR: "", DKIM_PRIVATE_KEY: "" }))).toBeUndefined();
  });

  it("refuses a partial set, naming each missing variable, locally as in production", () => {
    const partial = () => readServerEnv({ DKIM_DOMAIN: "example.com", DKIM_PRIVATE_KEY: pem });
    expect(partial).toThrow(/DKIM_SELECTOR: is required with DKIM_DOMAIN and DKIM_PRIVATE_KEY/);
    expect(() => readServerEnv({ DKIM_SELECTOR: "mail2026" })).toThrow(
      /DKIM_DOMAIN: is required with DKIM_SELECTOR[\s\S]*DKIM_PRIVATE_KEY: is required/,
    );
  });

  it("refuses a key that is not a private key in PEM, never printing it, and a bad domain or selector", () => {
    const publicPem = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    for (const bad of ["not a key", pem.replace(/[A-Za-z]{8}/, "########"), publicPem]) {
      const read = () => readServerEnv({ ...dkim, DKIM_PRIVATE_KEY: bad });
      expect(read).toThrow(/DKIM_PRIVATE_KEY: must be a private key in PEM/);
      expect(read).not.toThrow(/got "|not a key|MII/);
    }
    expect(() => readServerEnv({ ...dkim, DKIM_DOMAIN: "https://example.com" })).toThrow(/DKIM_DOMAIN: must be a domain name/);
    expect(() => readServerEnv({ ...dkim, DKIM_SELECTOR: "a b" })).toThrow(/DKIM_SELECTOR: must be a DNS label/);
  });

  it("reads MAIL_REPLY_TO as an address", () => {
    expect(readServerEnv({ MAIL_REPLY_TO: "owner@example.com" }).MAIL_REPLY_TO).toBe("owner@example.com");
    expect(() => readServerEnv({ MAIL_REPLY_TO: "Owner <owner@example.com>" })).toThrow(/MAIL_REPLY_TO: must be an email address/);
  });
});

describe("production environment", () => {
  const production = {
    SITE_ID: "site-123",
    DATABASE_URL: "postgres://app:s3cret@db.neon.tech/app",
    ADMIN_PASSWORD_HASH: `scrypt$131072$8$1$${"a".repeat(22)}$${"b".repeat(43)}`,
    SESSION_SECRET: "x".repeat(40),
    ADMIN_PATH: "owner-desk-2026",
    SITE_URL: "https://nofilter.example",
    SMTP_URL: "smtps://apikey:s3cret-key@smtp.provider.example:465",
    MAIL_FROM: "No Filter <hello@nofilter.example>",
  };

  it("accepts a complete production environment", () => {
    expect(readServerEnv(production).SITE_URL).toBe("https://nofilter.example");
  });

  it("refuses a plain ADMIN_PASSWORD without ever printing it", () => {
    const read = () => readServerEnv({ ...production, ADMIN_PASSWORD: "hunter2hunter2" });
    expect(read).toThrow(/ADMIN_PASSWORD: a plain password is refused in production/);
    expect(read).not.toThrow(/hunter2/);
  });

  it("names each missing production variable, on a build (NETLIFY=true) too", () => {
    const read = () => readServerEnv({ NETLIFY: "true" });
    expect(read).toThrow(/DATABASE_URL: no database configured in production/);
    expect(read).toThrow(/ADMIN_PASSWORD_HASH: is required in production/);
    expect(read).toThrow(/SESSION_SECRET: is required in production/);
    expect(read).toThrow(/ADMIN_PATH: is required in production/);
    expect(read).toThrow(/SITE_URL: is required in production/);
    expect(read).toThrow(/SMTP_URL: is required in production/);
    expect(read).toThrow(/MAIL_FROM: is required in production/);
  });

  it("checks the mail settings, never printing the SMTP credentials", () => {
    const badUrl = () => readServerEnv({ ...production, SMTP_URL: "https://user:s3cret-key@smtp.example" });
    expect(badUrl).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(badUrl).not.toThrow(/s3cret-key/);
    expect(() => readServerEnv({ ...production, MAIL_FROM: "hello@nofilter.example" })).toThrow(/MAIL_FROM: must be Name <address@domain>/);
  });

  it("reads SESSION_SECRET_PREVIOUS as comma-separated secrets of at least 32 characters, never printing them", () => {
    const [older, oldest] = ["o".repeat(40), "p".repeat(32)];
    const env = readServerEnv({ ...production, SESSION_SECRET_PREVIOUS: ` ${older}, ${oldest} ,` });
    expect(previousSessionSecrets(env)).toEqual([older, oldest]);
    expect(previousSessionSecrets(readServerEnv(production))).toEqual([]);
    const short = () => readServerEnv({ ...production, SESSION_SECRET_PREVIOUS: `${older},too-short-secret` });
    expect(short).toThrow(/SESSION_SECRET_PREVIOUS: must be the previous SESSION_SECRET values, comma-separated, each at least 32 characters/);
    expect(short).not.toThrow(/too-short-secret/);
    expect(() => readServerEnv({ ...production, SESSION_SECRET_PREVIOUS: " , " })).toThrow(/SESSION_SECRET_PREVIOUS/);
  });

  it("never prints a bad secret's value", () => {
    expect(() => readServerEnv({ ...production, DATABASE_URL: "mysql://u:pw@host/db" })).not.toThrow(/pw@host/);
  });

  it("keeps the relaxed rules for a local server", () => {
    expect(() => readServerEnv({ SITE_ID: "0", NO_FILTER_ENV: "local", ADMIN_PASSWORD: "a local password" })).not.toThrow();
  });
});

describe("Stripe (issue 47 point 1)", () => {
  const stripe = { STRIPE_SECRET_KEY: "sk_test_51AbCdEfGh", STRIPE_WEBHOOK_SECRET: "whsec_abcdefgh12345678" };

  it("turns payments on with both secrets, and off (nothing else changes) with neither", () => {
    expect(stripeSettings(readServerEnv(stripe))).toEqual({
      secretKey: stripe.STRIPE_SECRET_KEY,
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      apiUrl: undefined,
    });
    expect(stripeSettings(readServerEnv({ ...stripe, STRIPE_API_URL: "http://127.0.0.1:9410" }))?.apiUrl).toBe("http://127.0.0.1:9410");
    expect(stripeSettings(readServerEnv({}))).toBeUndefined();
    expect(stripeSettings(readServerEnv({ STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "" }))).toBeUndefined();
  });

  it("refuses one secret without the other, a publishable key, a bad secret or URL, naming the variable", () => {
    expect(() => readServerEnv({ STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_WEBHOOK_SECRET: is required with the other Stripe variable/,
    );
    expect(() => readServerEnv({ STRIPE_WEBHOOK_SECRET: stripe.STRIPE_WEBHOOK_SECRET })).toThrow(/STRIPE_SECRET_KEY: is required/);
    expect(() => readServerEnv({ ...stripe, STRIPE_SECRET_KEY: "pk_test_51AbCdEfGh" })).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(() => readServerEnv({ ...stripe, STRIPE_WEBHOOK_SECRET: "secret" })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must be the webhook endpoint's signing secret/,
    );
    expect(() => readServerEnv({ ...stripe, STRIPE_API_URL: "ftp://x" })).toThrow(/STRIPE_API_URL: must be an http\(s\) URL/);
  });
});
