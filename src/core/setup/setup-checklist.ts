import type { SqlExecutor } from "../db/sql-executor.ts";
import { deleteDownload, type DownloadsDeps } from "../downloads/downloads.service.ts";
import { usesPlaceholderAddress } from "../mail/postal-address.ts";
import { deletePost, type PostsDeps } from "../posts/posts.service.ts";
import { claimKeys, settingDefinitions, type SettingKey } from "../settings/settings.schema.ts";
import { hideSettings, siteSettingValues, type SettingsDeps } from "../settings/settings.service.ts";
import type { SetupChecklist, SetupItem } from "./setup-checklist.schema.ts";

/** What the checklist knows of the configuration, put together by the app (core reads no environment). */
export interface SetupFacts {
  production: boolean;
  /** `npm start` generated the admin password (it sits in the local secrets file, printed at every start). */
  passwordGenerated: boolean;
  /** `SITE_URL`'s host, or undefined when unset. */
  siteHost: string | undefined;
  /** `MAIL_FROM`'s domain, or undefined when unset. */
  sendingDomain: string | undefined;
}

/** What the setup checklist needs. */
export interface SetupDeps {
  db: SqlExecutor;
  setup: SetupFacts;
}

const socialKeys = ["youtube_url", "linkedin_url", "twitter_url", "instagram_url", "tiktok_url"] as const satisfies readonly SettingKey[];

/** Domains kept for examples and tests (RFC 2606, RFC 6761): no real site sends from or lives at them. */
function isExampleDomain(host: string | undefined): boolean {
  if (!host) return true;
  return /(^|\.)(example\.(com|net|org)|example|invalid|test|localhost)$/i.test(host) || host === "127.0.0.1";
}

function item(key: SetupItem["key"], label: string, fixAt: string, stillDefault: string | false): SetupItem {
  return { key, label, fixAt, done: stillDefault === false, detail: stillDefault === false ? "" : stillDefault };
}

/**
 * The dashboard's first-hour list: each value that is still the demo's or a default, with where it
 * is fixed. Production adds what only a live site needs (its address, its sending domain); locally
 * those are fine as they are.
 */
export async function setupChecklist(deps: SetupDeps): Promise<SetupChecklist> {
  const settings = await siteSettingValues(deps);
  const { rows } = await deps.db.query<{ posts: number; resources: number; passkeys: number; own_password: boolean }>(
    `SELECT (SELECT count(*)::int FROM posts WHERE demo) AS posts, (SELECT count(*)::int FROM downloads WHERE demo) AS resources,
            (SELECT count(*)::int FROM admin_passkeys) AS passkeys,
            (SELECT password_hash IS NOT NULL FROM admin_security WHERE id = 1) AS own_password`,
  );
  const demo = rows[0] ?? { posts: 0, resources: 0, passkeys: 0, own_password: false };
  // A passkey, or a password set in Security: the generated one no longer guards the dashboard alone.
  const ownSignIn = demo.passkeys > 0 || demo.own_password;
  const atDefault = (key: SettingKey) => settings[key] === settingDefinitions[key].defaultValue;
  const socialsAtDefault = socialKeys.filter(atDefault).map((key) => settingDefinitions[key].description);
  // SPEC §9's numbers are the demo's too: named until the owner sets or hides each one.
  const claimsAtDefault = claimKeys.filter(atDefault).map((key) => settings[key]);
  const demoRows =
    demo.posts + demo.resources > 0 &&
    `${String(demo.posts)} demo post${demo.posts === 1 ? "" : "s"} and ${String(demo.resources)} demo resource${demo.resources === 1 ? "" : "s"} (with made-up download counts) are still on the site.`;
  const demoClaims =
    claimsAtDefault.length > 0 &&
    `The claims are still the demo's: ${claimsAtDefault.join(", ")}. Set your own numbers in Site Settings, or they go with the demo content.`;
  const items: SetupItem[] = [
    item(
      "demo-content",
      "Remove the demo posts and resources",
      "#remove-demo-content",
      demoRows || demoClaims ? [demoRows, demoClaims].filter(Boolean).join(" ") : false,
    ),
    item("contact-email", "Your contact email", "#settings/contact_email", atDefault("contact_email") && `Still ${settings.contact_email}.`),
    item(
      "social-links",
      "Your social links",
      "#settings/youtube_url",
      socialsAtDefault.length > 0 && `Still the demo's: ${socialsAtDefault.join(", ")}. Set yours, or press Don't show on a link you don't use.`,
    ),
    item(
      "postal-address",
      "Your postal address for email footers",
      "#settings/mailing_address",
      (await usesPlaceholderAddress(deps)) && "Still the example street. The law (CAN-SPAM) requires your real one in every email.",
    ),
    item(
      "admin-password",
      "Your own admin password",
      "#security",
      deps.setup.passwordGenerated &&
        !ownSignIn &&
        "npm start generated it. Change it in Security, or add a passkey there (or set ADMIN_PASSWORD_HASH from npm run admin:hash in .env).",
    ),
  ];
  if (deps.setup.production) {
    items.push(
      item(
        "site-url",
        "Your site's address",
        "docs/deploying.md",
        isExampleDomain(deps.setup.siteHost) && "SITE_URL is not your site's real address.",
      ),
      item(
        "sending-domain",
        "Email from your own domain",
        "docs/email.md",
        isExampleDomain(deps.setup.sendingDomain) &&
          "MAIL_FROM sends from an example domain: set an address at your own domain, with its provider's DKIM and SPF.",
      ),
    );
  }
  return { items, done: items.filter((entry) => entry.done).length, total: items.length };
}

/**
 * "Remove demo content": deletes every demo post and resource, each the way the dashboard's own
 * Delete does (its files too), and turns off the claims still at SPEC's numbers (nobody chose them);
 * then one rebuild. What the owner wrote is never demo.
 */
export async function removeDemoContent(deps: PostsDeps & DownloadsDeps & SettingsDeps): Promise<{ posts: number; resources: number }> {
  const posts = await deps.db.query<{ id: number }>("SELECT id FROM posts WHERE demo ORDER BY id");
  const resources = await deps.db.query<{ id: number }>("SELECT id FROM downloads WHERE demo ORDER BY id");
  // One rebuild at the end rather than one per row.
  const quiet = { ...deps, rebuild: () => undefined };
  for (const { id } of posts.rows) await deletePost(quiet, id);
  for (const { id } of resources.rows) await deleteDownload(quiet, id);
  const settings = await siteSettingValues(deps);
  const claims = await hideSettings(
    deps,
    claimKeys.filter((key) => settings[key] === settingDefinitions[key].defaultValue),
  );
  if (posts.rows.length + resources.rows.length + claims > 0) deps.rebuild();
  return { posts: posts.rows.length, resources: resources.rows.length };
}
