import type { SqlQueryable } from "../db/sql-executor.ts";
import { clientHash, dailySalt, visitorHash } from "./daily-salt.ts";
import { normalPath } from "./page-view.ts";
import { isSitePage } from "./site-pages.ts";
import type { Day } from "./stats-days.ts";

/** What a form's request says about where it was used; none of it is stored. */
export interface FormRequest {
  /** The `Referer` the browser sent with the form (same-origin: the page's full address). */
  referer: string | null;
  userAgent: string;
  clientIp: string;
  siteHosts: readonly string[];
}

/**
 * The page a form was used on, and the visitor whose source the count takes: `sourceSql` reads it
 * inside the statement that counts (one statement a form, not a read and then a write).
 */
export interface Attribution {
  path: string;
  visitor: string;
  /** The client address under today's salt (the visitor cap's key). */
  client: string;
}

/** The page of a form used without a `Referer` naming a page of the site. */
export const unknownPage = "unknown";

/**
 * The page comes from the form's `Referer` (the site sends `strict-origin-when-cross-origin`, so a
 * same-site form carries its page's address; "unknown" without one, or when it names no page of the
 * site — a preview, a made-up path). The source is the visit's:
 * today's visitor hash, made as the beacon makes it, finds the first outside source of today's page
 * views ("direct" without one). The form's island sends nothing more, so it stays as small as it was.
 */
export async function attributeForm(db: SqlQueryable, day: Day, form: FormRequest, now: Date): Promise<Attribution> {
  let path = unknownPage;
  if (form.referer) {
    try {
      const page = new URL(form.referer);
      if (form.siteHosts.includes(page.hostname)) path = normalPath(page.pathname);
    } catch {
      // A malformed Referer names no page.
    }
  }
  if (path !== unknownPage && !(await isSitePage(db, path, now))) path = unknownPage;
  const { salt } = await dailySalt(db, day);
  return { path, visitor: visitorHash(salt, form.clientIp, form.userAgent, form.siteHosts), client: clientHash(salt, form.clientIp) };
}

/** The visit's source as an SQL expression over `day` (a date) and `visitor` (attributeForm's hash): parameters or columns. */
export const sourceSql = (day: string, visitor: string) =>
  `coalesce((SELECT e.source FROM stats_events e WHERE e.day = ${day}::date AND e.visitor = ${visitor} AND e.source <> '' ORDER BY e.at, e.id LIMIT 1), 'direct')`;
