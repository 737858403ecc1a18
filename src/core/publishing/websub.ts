import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { claimLeased, giveUpAfterAge, runDeliveries, type DeliveryKind, type EngineRun, type LeasedRow } from "../mail/delivery-engine.ts";
import type { DeliveryFailure } from "../mail/delivery-failure.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Clock } from "../shared/clock.ts";
import { MissingSiteUrlError, type Site } from "../shared/site.ts";

/**
 * WebSub publishing (issue 43 point 2; docs/decisions/0077-websub.md): after a post is published,
 * updated, goes live on its schedule or is unpublished, the hub the feeds name (`rel="hub"`, the
 * `websub_hub` setting) is told which feeds changed — `POST hub` with `hub.mode=publish` and a
 * `hub.url` per feed — once the change is live. A change is a row of `websub_pings` written in the
 * post's own transaction, `waiting` until the post's page shows it, then a delivery kind of the one
 * engine (src/core/mail/delivery-engine.ts): claimed under a lease, retried while the hub is down.
 */

/** The feed files of every feed folder (src/core/feeds/feeds.ts `feedFormats`; websub.test.ts checks they agree). */
export const feedFiles = ["rss.xml", "atom.xml", "feed.json"] as const;

/** The public hub a production site names when the owner set none: Google's. */
export const publicWebsubHub = "https://pubsubhubbub.appspot.com/";

/** The local hub `npm start` serves (netlify/local/websub-hub.ts), under the site's address. */
export const localWebsubHubPath = "/.netlify/local/websub";

/** The hub the site names: the `websub_hub` setting, or the default (`websubDefaultHub`) when it is empty. */
export const websubHub = (setting: string, defaultHub: string): string => setting.trim() || defaultHub;

/** A page answered: live on 200 only; a post's page says when it last changed. */
export interface HubPageCheck {
  live: boolean;
  answer: string;
  modifiedTime?: string;
}

/** What the hub answered (the webhook poster's answer: src/adapters/webhook-poster.ts). */
export interface HubAnswer {
  status: number;
  body: string;
  durationMs: number;
}

export interface WebsubDeps {
  db: SqlExecutor;
  now: Clock["now"];
  clock?: Pick<Clock, "now" | "sleep"> | undefined;
  site: Site;
  /** Whether a page of the live site answers 200, and its modified time (src/adapters/page-check.ts). */
  checkPage: (url: string) => Promise<HubPageCheck>;
  /** POSTs to the hub with the webhooks' SSRF rules; rejects when no answer came (`refused`: never retried). */
  postWebhook: (request: { url: string; headers: Record<string, string>; body: string }) => Promise<HubAnswer>;
  /** The hub when the setting is empty: Google's in production, the local one under `npm start` (src/app/create-app.ts). */
  websubDefaultHub: string;
}

/** One change of a post, as the posts service records it in its transaction. */
export interface HubChange {
  postId: number;
  /** The post's page (`/blog/{slug}`). */
  pagePath: string;
  /** `live`: published or updated (the page must answer 200 with `modifiedAt`); `gone`: unpublished or deleted. */
  expect: "live" | "gone";
  modifiedAt: Date | null;
  /** The feed folders the post is (or was) in: `/`, its category's, its tags'. */
  feedFolders: string[];
}

/** A change that has not shown for this long is given up (a build that never came): the next change pings again. */
export const websubWaitForMs = 24 * 3_600_000;
/** A hub down this long after the change went live: given up. */
export const websubRetryForMs = 24 * 3_600_000;
/** Waiting changes looked at per run (one GET each). */
const checksPerRun = 20;

const feedPathsOf = (folders: readonly string[]) => [
  ...new Set(folders.flatMap((folder) => feedFiles.map((file) => `${folder.endsWith("/") ? folder : `${folder}/`}${file}`))),
];

/**
 * Records a change in the caller's transaction. A change of the same post still waiting is replaced
 * (skipped, its feeds carried over): the page can only show the latest, and one ping says it all.
 */
export async function queueHubPing(tx: SqlQueryable, deps: { now: Clock["now"] }, change: HubChange): Promise<void> {
  const { rows } = await tx.query<{ feed_paths: string[] }>(
    "UPDATE websub_pings SET status = 'skipped', last_error = 'replaced by a later change' WHERE post_id = $1 AND status = 'waiting' RETURNING feed_paths",
    [change.postId],
  );
  const feeds = [...new Set([...feedPathsOf(change.feedFolders), ...rows.flatMap((row) => row.feed_paths)])];
  await tx.query(
    "INSERT INTO websub_pings (post_id, page_path, expect, modified_at, feed_paths, created_at) VALUES ($1, $2, $3, $4, $5::text[], $6)",
    [change.postId, change.pagePath, change.expect, change.modifiedAt, feeds, deps.now()],
  );
}

/** Whether the page shows the change: its modified time reached for `live`, a 4xx for `gone`. */
export function changeIsLive(check: HubPageCheck, expect: "live" | "gone", modifiedAt: Date | null): boolean {
  if (expect === "gone") return !check.live && /^4\d\d$/.test(check.answer);
  if (!check.live) return false;
  if (!modifiedAt) return true;
  const shown = check.modifiedTime ? Date.parse(check.modifiedTime) : Number.NaN;
  return !Number.isNaN(shown) && shown >= modifiedAt.getTime();
}

/**
 * Looks at the waiting changes (oldest first, `checksPerRun` at most): each whose page shows it
 * becomes `pending` for the engine; one waiting past `websubWaitForMs` fails with what its page
 * answered. Answers how many went live.
 */
export async function promoteLivePings(deps: WebsubDeps): Promise<number> {
  const { rows } = await deps.db.query<{
    id: number | string;
    page_path: string;
    expect: "live" | "gone";
    modified_at: Date | null;
    created_at: Date;
  }>("SELECT id, page_path, expect, modified_at, created_at FROM websub_pings WHERE status = 'waiting' ORDER BY id LIMIT $1", [checksPerRun]);
  let live = 0;
  for (const row of rows) {
    const check = await deps.checkPage(deps.site.absolute(row.page_path));
    const modifiedAt = row.modified_at === null ? null : new Date(row.modified_at);
    const now = deps.now();
    if (changeIsLive(check, row.expect, modifiedAt)) {
      await deps.db.query("UPDATE websub_pings SET status = 'pending', live_at = $2 WHERE id = $1 AND status = 'waiting'", [row.id, now]);
      live += 1;
    } else if (now.getTime() - new Date(row.created_at).getTime() >= websubWaitForMs) {
      await deps.db.query("UPDATE websub_pings SET status = 'failed', last_error = $2 WHERE id = $1 AND status = 'waiting'", [
        row.id,
        `the change never showed on ${row.page_path} (last answer: ${check.answer})`.slice(0, 500),
      ]);
    }
  }
  return live;
}

/** The ping's body: `hub.mode=publish` and one `hub.url` per feed, form-encoded (as WordPress's WebSub plugin sends it). */
export function pingBody(feedUrls: readonly string[]): string {
  const form = new URLSearchParams({ "hub.mode": "publish" });
  for (const url of feedUrls) form.append("hub.url", url);
  return form.toString();
}

/** The hub answered, not 2xx. */
class HubRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** 429, 5xx and no answer are retried; another 4xx, a redirect and a refused address are final. */
export function classifyHubFailure(error: unknown): DeliveryFailure {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof HubRefusal) return { kind: error.status === 429 || error.status >= 500 ? "transient" : "permanent", reason };
  const refused = typeof error === "object" && error !== null && "refused" in error && error.refused === true;
  return { kind: refused ? "permanent" : "transient", reason };
}

interface PingRow extends LeasedRow {
  feedPaths: string[];
  /** When it went live: the retries' clock starts there. */
  createdAt: Date;
}

function pingKind(deps: WebsubDeps, hub: string): DeliveryKind<PingRow, null> {
  return {
    table: "websub_pings",
    claim: async (size, leaseMs) =>
      (
        await claimLeased<{ feed_paths: string[]; live_at: Date | null; created_at: Date }>(
          deps,
          { table: "websub_pings", returning: "q.feed_paths, q.live_at, q.created_at" },
          size,
          leaseMs,
        )
      ).map((row) => ({
        id: row.id,
        attempts: row.attempts,
        leaseUntil: row.leaseUntil,
        feedPaths: row.feed_paths,
        createdAt: new Date(row.live_at ?? row.created_at),
      })),
    deliver: async (row) => {
      const body = pingBody(row.feedPaths.map((path) => deps.site.absolute(path)));
      const answer = await deps.postWebhook({
        url: hub,
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "NoFilter-WebSub/1" },
        body,
      });
      if (answer.status >= 200 && answer.status < 300) return null;
      throw new HubRefusal(answer.status, `hub answered ${String(answer.status)}`);
    },
    classify: classifyHubFailure,
    markSent: async (row) => {
      await deps.db.query(
        "UPDATE websub_pings SET status = 'sent', sent_at = $2, lease_until = NULL, last_error = NULL WHERE id = $1 AND status = 'pending'",
        [row.id, deps.now()],
      );
    },
    // 1, 2, 4… 30 minutes between tries (the engine's default), for a day after the change went live.
    retry: giveUpAfterAge(websubRetryForMs),
    // Each ping its own "address": a hub that is down retries each row, never reads as a provider streak.
    address: (row) => `ping-${String(row.id)}`,
    pause: { now: () => Promise.resolve(null), start: () => Promise.resolve(), end: () => Promise.resolve() },
  };
}

export interface HubPingRun extends EngineRun {
  /** Changes found live in this run. */
  live: number;
}

/**
 * One bounded run (the watchdog's every minute, `npm start`'s every second): the waiting changes
 * whose page shows them become pending, then the pending pings go to the hub. Without SITE_URL
 * there is no feed address to name: nothing is done.
 */
export async function pingHubs(deps: WebsubDeps, options: { leaseMs?: number; stopClaimingAt?: Date | undefined } = {}): Promise<HubPingRun> {
  try {
    void deps.site.url;
  } catch (error) {
    if (error instanceof MissingSiteUrlError) return { live: 0, sent: 0, failed: 0, skipped: 0, retried: 0 };
    throw error;
  }
  const live = await promoteLivePings(deps);
  const hub = websubHub((await siteSettingValues(deps)).websub_hub, deps.websubDefaultHub);
  const run = await runDeliveries(deps, pingKind(deps, hub), {
    concurrency: 2,
    ...(options.leaseMs && { leaseMs: options.leaseMs }),
    stopClaimingAt: options.stopClaimingAt,
  });
  return { live, ...run };
}
