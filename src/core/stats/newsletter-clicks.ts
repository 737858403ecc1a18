import type { SqlQueryable } from "../db/sql-executor.ts";
import { RateLimitedError } from "../errors.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { isBotAgent } from "./page-view.ts";

/**
 * Stands for a recipient's click token in a send's stored email, like the unsubscribe token's
 * placeholder (characters neither URLSearchParams nor HTML escape).
 */
export const recipientClickPlaceholder = "__RECIPIENT_CLICK__";

/** The click redirect's path; the `l` (link) and `r` (recipient) tokens ride in its query. */
export type ClickUrl = (linkToken: string, recipientToken: string) => string;

/** A link of the email that leaves for the web (not a mailto:, not the site's own API links such as unsubscribe). */
const trackedHref = /(<a\b[^>]*?\shref=")(https?:\/\/[^"]+)(")/gi;

const unescapeHref = (href: string) =>
  href
    .replaceAll("&amp;", "&")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

/**
 * What a tracked link belongs to: a newsletter send, or a sequence step (whose every email shares
 * the step's links). The recipient's token is signed with it, so it counts only for its own links.
 */
export type LinkOwner = { sendId: number } | { stepId: number };

const recipientScope = (owner: LinkOwner) => ("sendId" in owner ? String(owner.sendId) : `step ${String(owner.stepId)}`);

export const linkToken = (signer: Signer, linkId: number) => `${String(linkId)}.${signer.sign("newsletter-click", `link ${String(linkId)}`)}`;

/** A recipient's click token for one send (a send's id) or one step: their subscriber id, signed with it. */
export const recipientClickToken = (signer: Signer, owner: LinkOwner | number, subscriberId: number) => {
  const scope = recipientScope(typeof owner === "number" ? { sendId: owner } : owner);
  return `${String(subscriberId)}.${signer.sign("newsletter-click", `recipient ${scope} ${String(subscriberId)}`)}`;
};

/**
 * Stores the links found of `owner` (`newsletter_links`, by position) and answers their ids by
 * position. A send's links are new rows (a send is started once); a step's are found or added by
 * (position, address), so every email of the step shares them and an edit adds only the new ones.
 */
async function storeLinks(db: SqlQueryable, owner: LinkOwner, urls: string[]): Promise<Map<number, number>> {
  const { rows } =
    "sendId" in owner
      ? await db.query<{ id: number; position: number }>(
          `INSERT INTO newsletter_links (send_id, position, url)
           SELECT $1, position, url FROM unnest($2::text[]) WITH ORDINALITY AS link(url, position)
           RETURNING id, position`,
          [owner.sendId, urls],
        )
      : await db.query<{ id: number; position: number }>(
          `WITH found AS (SELECT url, position::int AS position FROM unnest($2::text[]) WITH ORDINALITY AS link(url, position)),
                added AS (
                  INSERT INTO newsletter_links (step_id, position, url) SELECT $1, position, url FROM found
                  ON CONFLICT (step_id, position, md5(url)) WHERE step_id IS NOT NULL DO NOTHING
                  RETURNING id, position)
           SELECT id, position FROM added
           UNION ALL
           SELECT l.id, l.position FROM newsletter_links l JOIN found f ON f.position = l.position AND md5(f.url) = md5(l.url)
            WHERE l.step_id = $1`,
          [owner.stepId, urls],
        );
  return new Map(rows.map((row) => [Number(row.position) - 1, row.id]));
}

/**
 * Sends every web link of an email's HTML through the signed click redirect: each link is stored
 * for its owner (a send or a step) and its `href` becomes the redirect with the link's token and
 * the recipient's (`recipient`: their token, or a placeholder each recipient's copy replaces).
 * Links into the site's API (the unsubscribe link) stay as they are.
 */
export async function trackLinks(
  db: SqlQueryable,
  needs: { signer: Signer; site: Pick<Site, "absolute" | "url">; clickUrl: ClickUrl },
  owner: LinkOwner,
  html: string,
  recipient: string = recipientClickPlaceholder,
): Promise<string> {
  const found: { at: number; url: string }[] = [];
  for (const match of html.matchAll(trackedHref)) {
    const url = unescapeHref(match[2] ?? "");
    if (url.includes("__RECIPIENT_") || url.startsWith(`${needs.site.url}/api/`)) continue;
    found.push({ at: match.index, url });
  }
  if (found.length === 0) return html;
  const idAt = await storeLinks(
    db,
    owner,
    found.map((link) => link.url),
  );
  let position = -1;
  const atLinks = new Set(found.map((link) => link.at));
  return html.replace(trackedHref, (whole, before: string, _href: string, after: string, offset: number) => {
    if (!atLinks.has(offset)) return whole;
    position += 1;
    const id = idAt.get(position);
    if (id === undefined) return whole;
    const redirect = needs.site.absolute(needs.clickUrl(linkToken(needs.signer, id), recipient));
    return `${before}${redirect.replaceAll("&", "&amp;")}${after}`;
  });
}

/** A send's links made trackable, with the recipient's placeholder (see `trackLinks`). */
export const trackNewsletterLinks = (
  db: SqlQueryable,
  needs: { signer: Signer; site: Pick<Site, "absolute" | "url">; clickUrl: ClickUrl },
  sendId: number,
  html: string,
): Promise<string> => trackLinks(db, needs, { sendId }, html);

/**
 * Clicks counted per link and client address (the rate limits' key, an IPv6 address by its /64) in
 * an hour: a person clicks a link once or twice; a script reloading it adds no more than this
 * (docs/decisions/0054-numbers-no-one-can-fake.md). Clicks over it still follow the link.
 */
export const clickCountLimit: Omit<RateLimit, "bucket"> = { max: 3, windowMs: 60 * 60 * 1000 };

/** Whether one more click of `linkId` from this client counts (one counter row per link, client and hour). */
async function clickCounts(
  deps: { db: SqlQueryable; now: () => Date; env?: { RATE_LIMIT_MULTIPLIER?: number | undefined } },
  linkId: number,
  clientIp: string,
): Promise<boolean> {
  try {
    await takeRateLimit(deps, { ...clickCountLimit, bucket: `click ${String(linkId)}` }, clientIp);
    return true;
  } catch (error) {
    if (error instanceof RateLimitedError) return false;
    throw error;
  }
}

/**
 * Where a click goes: the link's stored URL when its token is genuine, else nowhere (`null`: the
 * caller answers with the site's home, never an address from the request). A genuine click counts
 * once more for the link, and once per recipient for unique clicks when their token is genuine too.
 * A crawler's fetch (isbot) follows the link but is not counted, nor is a client's click past
 * `clickCountLimit` on the link.
 */
export async function followClick(
  deps: { db: SqlQueryable; signer: Signer; now: () => Date; env?: { RATE_LIMIT_MULTIPLIER?: number | undefined } },
  tokens: { link: string | undefined; recipient: string | undefined; userAgent: string; clientIp: string },
): Promise<string | null> {
  const [linkPart, linkSignature] = (tokens.link ?? "").split(".");
  const linkId = Number(linkPart);
  if (!Number.isSafeInteger(linkId) || linkId <= 0 || !linkSignature) return null;
  if (!deps.signer.verify("newsletter-click", `link ${String(linkId)}`, linkSignature)) return null;
  const counted = !isBotAgent(tokens.userAgent) && (await clickCounts(deps, linkId, tokens.clientIp));
  const { rows } = await deps.db.query<{ url: string; send_id: number | null; step_id: number | null }>(
    `UPDATE newsletter_links SET clicks = clicks + $2::int WHERE id = $1 RETURNING url, send_id, step_id`,
    [linkId, counted ? 1 : 0],
  );
  const link = rows[0];
  if (!link) return null;
  const owner: LinkOwner = link.send_id === null ? { stepId: link.step_id ?? 0 } : { sendId: link.send_id };
  const [subscriberPart, recipientSignature] = (tokens.recipient ?? "").split(".");
  const subscriberId = Number(subscriberPart);
  if (
    counted &&
    Number.isSafeInteger(subscriberId) &&
    subscriberId > 0 &&
    recipientSignature &&
    deps.signer.verify("newsletter-click", `recipient ${recipientScope(owner)} ${String(subscriberId)}`, recipientSignature)
  ) {
    await deps.db.query(
      `INSERT INTO newsletter_link_clicks (link_id, subscriber_id, first_clicked_at)
       SELECT $1, id, $3 FROM subscribers WHERE id = $2
       ON CONFLICT (link_id, subscriber_id) DO UPDATE SET clicks = newsletter_link_clicks.clicks + 1`,
      [linkId, subscriberId, deps.now()],
    );
  }
  return link.url;
}

/** A send's click figures: every click, unique clickers, and each link's. */
export interface SendClicks {
  clicks: number;
  uniqueClicks: number;
  links: { url: string; clicks: number; uniqueClicks: number }[];
}

export async function sendClicks(db: SqlQueryable, sendId: number): Promise<SendClicks> {
  const [links, unique] = await Promise.all([
    db.query<{ url: string; clicks: number; unique_clicks: number }>(
      `SELECT l.url, l.clicks, count(c.id)::int AS unique_clicks
         FROM newsletter_links l LEFT JOIN newsletter_link_clicks c ON c.link_id = l.id
        WHERE l.send_id = $1 GROUP BY l.id ORDER BY l.position`,
      [sendId],
    ),
    db.query<{ unique_clicks: number }>(
      `SELECT count(DISTINCT c.subscriber_id)::int AS unique_clicks
         FROM newsletter_link_clicks c JOIN newsletter_links l ON l.id = c.link_id WHERE l.send_id = $1`,
      [sendId],
    ),
  ]);
  return {
    clicks: links.rows.reduce((sum, link) => sum + link.clicks, 0),
    uniqueClicks: unique.rows[0]?.unique_clicks ?? 0,
    links: links.rows.map((link) => ({ url: link.url, clicks: link.clicks, uniqueClicks: link.unique_clicks })),
  };
}

/** Each step's click figures (steps without a click answer zeros): every click, and unique clickers. */
export async function stepClicks(db: SqlQueryable, stepIds: number[]): Promise<Map<number, { clicks: number; uniqueClicks: number }>> {
  const { rows } = await db.query<{ step_id: number; clicks: number; unique_clicks: number }>(
    `SELECT l.step_id,
            (SELECT coalesce(sum(k.clicks), 0)::int FROM newsletter_links k WHERE k.step_id = l.step_id) AS clicks,
            count(DISTINCT c.subscriber_id)::int AS unique_clicks
       FROM newsletter_links l LEFT JOIN newsletter_link_clicks c ON c.link_id = l.id
      WHERE l.step_id = ANY($1::integer[])
      GROUP BY l.step_id`,
    [stepIds],
  );
  return new Map(rows.map((row) => [row.step_id, { clicks: row.clicks, uniqueClicks: row.unique_clicks }]));
}
