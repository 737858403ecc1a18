import { blobsFileStore } from "../adapters/blobs-file-store.ts";
import { smtpMailer } from "../adapters/smtp-mailer.ts";
import { dkimSigning, isProduction, type ServerEnv } from "../config/server-env.ts";
import { configuredDatabase } from "./configured-database.ts";
import { backgroundRunKicker } from "../adapters/background-run.ts";
import { movingJobKicker } from "../adapters/moving-background.ts";
import { buildHookRebuilder } from "../adapters/build-hook.ts";
import { sharedRebuilder } from "../adapters/shared-build-hook.ts";
import { signerFor } from "./signer.ts";
import type { AppParts } from "./create-app.ts";

/** The sender when MAIL_FROM is not set (only allowed locally: production requires it). */
export const localMailFrom = "No Filter <hello@localhost>";

/**
 * Where `npm start` sends mail instead of what the environment says: its local catcher's URL, and
 * a transport with `smtpMailer`'s signature (one that runs it on a thread of its own).
 */
export interface LocalMail {
  smtpUrl?: string | undefined;
  transport?: typeof smtpMailer;
}

/**
 * The parts the configuration calls for — on Netlify, and under `npm start` / `npm run dev` (whose
 * emulation stands in for Netlify's database and Blobs): the configured database through its
 * driver, Netlify Blobs, email through SMTP_URL, and the build hook.
 */
export async function configuredParts(env: ServerEnv, localMail: LocalMail = {}): Promise<AppParts> {
  const db = await configuredDatabase(env);
  const smtpUrl = localMail.smtpUrl ?? env.SMTP_URL;
  const transport = localMail.transport ?? smtpMailer;
  return {
    env,
    db,
    files: blobsFileStore(),
    ...(smtpUrl && {
      mail: transport(smtpUrl, env.MAIL_FROM ?? localMailFrom, {
        maxConnections: env.SMTP_MAX_CONNECTIONS,
        ratePerSecond: env.SMTP_RATE_PER_SECOND,
        dkim: dkimSigning(env),
      }),
    }),
    // On Netlify, instances share the hook's timing through the database; locally one process does.
    // Every request and every call's outcome is recorded, so a failed call is retried (publish-due-posts,
    // every minute) and the dashboard says whether the site is live.
    rebuild:
      isProduction(env) && env.BUILD_HOOK_URL
        ? sharedRebuilder({ db, url: env.BUILD_HOOK_URL, track: { db, now: () => new Date() } })
        : buildHookRebuilder(env.BUILD_HOOK_URL, { track: { db, now: () => new Date() } }),
    // On Netlify a send starts the Background Function at once; elsewhere a timer runs the sends
    // (`npm start`) and nothing is kicked.
    ...(isProduction(env) &&
      env.SITE_URL &&
      env.SESSION_SECRET && {
        kickSends: backgroundRunKicker({ siteUrl: env.SITE_URL, signer: signerFor(env), now: () => new Date() }),
        // Imports, backups and restores run in their Background Function; elsewhere in this process.
        startJob: movingJobKicker({ siteUrl: env.SITE_URL, signer: signerFor(env), now: () => new Date() }),
      }),
    // Anonymous public reads are shared for a second: visitors may see another instance's change a
    // second late; this instance's own writes clear it at once.
    sharedReadMs: 1000,
  };
}
